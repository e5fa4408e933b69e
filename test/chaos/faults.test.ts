// Faults under load, with a ledger: the driver of `npm run bench:faults` with short
// phases. Its own mariadbd (durable settings) and two real replicas; several clients
// write checkable things (ids chosen here, claims, leases, config versions) while
// MariaDB is SIGKILLed and SIGSTOPped, a replica is SIGTERMed and another SIGKILLed, and
// connections age out. Every acknowledged write must be in MariaDB afterwards, the
// ledger must keep its invariants, every fault must recover within its bound
// (bench/faults/faults.ts says why each bound), and a replica started after the clients
// connected must get their calls once connections age out (and, the control, not while
// they do not). One assertion fails on purpose until a client defect is fixed: see
// "no call fails because a replica refused its stream".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultRunResult, PhaseResult } from '../../bench/faults/driver.js';
import { renderTable } from '../../bench/faults/report.js';
import { LEDGER_DEADLINE_MS as DEADLINE_MS, LedgerRun } from '../helpers/fault-ledger.js';
import { recordFigure } from '../helpers/figures.js';

const AGE_MS = 2000;
/**
 * Scheduling slack on top of every bound: the replicas, MariaDB, the clients and other
 * test files share 2 cores, and a bound is checked against wall time of this process.
 */
const SLACK_MS = 2000;

const ledger = new LedgerRun();
const log = ledger.log;

beforeAll(async () => {
  const result = await ledger.run({
    ageMs: AGE_MS,
    newReplica: true,
    // The faults of the network to MariaDB are test/chaos/db-tcp-faults.test.ts's.
    faults: ['steady', ...FAULT_NAMES],
  });
  console.log(`${renderTable(result)}\n${result.phases.map((p) => `${p.fault} failures: ${JSON.stringify(p.failedByReason)}`).join('\n')}`);
}, 240_000);

afterAll(async () => {
  await ledger.stop();
}, 60_000);

const run = (): FaultRunResult => ledger.finished();
const phase = (name: string): PhaseResult => ledger.phase(name);

const FAULT_NAMES = ['mariadb-sigkill', 'mariadb-sigstop', 'replica-sigterm', 'replica-sigkill', 'goaway'];

describe('faults under load', () => {
  it('ran every fault under a load that kept writing', () => {
    expect(run().phases.map((p) => p.fault)).toEqual(['steady', ...FAULT_NAMES]);
    for (const p of run().phases) expect(p.writesAcked, `${p.fault}: writes acknowledged`).toBeGreaterThan(50);
    // The checks had something to check: every kind of write was acknowledged.
    for (const [kind, n] of Object.entries(run().acked)) expect(n, `${kind} writes acknowledged`).toBeGreaterThan(0);
    expect(run().claimsRequeued, 'claims requeued by the sweeper').toBeGreaterThan(0);
  });

  it.each(['steady', ...FAULT_NAMES])('%s: no acknowledged write is lost', (name) => {
    const p = phase(name);
    expect(p.lost, `${name}: lost writes`).toEqual([]);
    expect(p.writesLost).toBe(0);
  });

  it('the whole ledger is in MariaDB at the end, and keeps its invariants', () => {
    expect(run().lostAtEnd).toEqual([]);
    // No claim held by two owners, no epoch or lease token acknowledged twice, no lease
    // hold overlapping the next token's, no config version acknowledged twice.
    expect(run().violations).toEqual([]);
  });

  it.each(['mariadb-sigkill', 'mariadb-sigstop', 'replica-sigterm', 'replica-sigkill'])('%s: recovers within its bound', (name) => {
    const p = phase(name);
    expect(p.recoverMs, `${name}: no acknowledged write after the fault\n${log.join('\n')}`).not.toBeNull();
    expect(p.recoverMs as number).toBeLessThanOrEqual((p.boundMs as number) + SLACK_MS);
    recordFigure(`faults-${name}`, { heldMs: p.heldMs, recoverMs: p.recoverMs as number, boundMs: p.boundMs as number, failed: p.callsFailed, ok: p.callsOk });
  });

  it.each(['replica-sigterm', 'replica-sigkill'])('%s: the replacement replica serves the load', (name) => {
    // Ready → its first call from the load: the clients' reconnect backoff (at most 2 s).
    const p = phase(name);
    expect(p.rejoinMs, `${name}: the replacement served no call`).not.toBeNull();
    expect(p.rejoinMs as number).toBeLessThanOrEqual(2000 + SLACK_MS);
  });

  it.each(['replica-sigterm', 'replica-sigkill', 'goaway'])('%s: no read or idempotent write failed (they are retried on the other replica)', (name) => {
    const p = phase(name);
    expect({ read: p.failedByClass.read, idempotent: p.failedByClass.idempotent }, p.failureSamples.join('\n')).toEqual({ read: 0, idempotent: 0 });
  });

  it('no call fails because a replica refused its stream (an age-out or a drain: never processed, so safe to retry)', () => {
    // KNOWN DEFECT (client/transport.ts): an aged-out or draining connection answers new
    // streams with RST_STREAM REFUSED_STREAM, which grpc-js reports as UNAVAILABLE 'Stream
    // refused by server' — the request never reached a handler (grpc-js itself calls it
    // progress 'REFUSED' and retries it transparently, but the client turns grpc-js
    // retries off). neverSent() does not count it as unsent, so Dequeue, SetClusterConfig
    // and the other non-idempotent calls surface DatabaseUnavailable on a routine
    // connection recycle, against the client's retry rule (docs/client.md, "Retries": only when it provably never left
    // the process, or the tier says it took no effect).
    const refused = run()
      .phases.map((p) => ({ fault: p.fault, failed: p.failedByReason['Stream refused by server'] ?? 0 }))
      .filter((x) => x.failed > 0);
    expect(refused).toEqual([]);
  });

  it('goaway: connection age-outs leave no stretch without an acknowledged write longer than the deadline', () => {
    const p = phase('goaway');
    expect(p.longestGapMs).toBeLessThanOrEqual(DEADLINE_MS + SLACK_MS);
  });

  it('a replica started after the clients connected receives their calls within the max connection age', () => {
    const n = run().newReplica;
    expect(n).toBeDefined();
    if (!n) return;
    expect(n.firstTrafficMs, 'the new replica received no call').toBeDefined();
    // Its bound: age + 10 % jitter (grpc-js) + 3 s for the re-resolution, connect and scrape.
    // (The grace cannot be the 3 s one might pick: the tier requires more than the
    // longest long-poll, 30 s. It only keeps old calls running; new calls move at once.)
    expect(n.firstTrafficMs as number).toBeLessThanOrEqual(n.boundMs);
    expect(n.resolutionsAfterAdd).toBeGreaterThan(0);
    recordFigure('faults-new-replica', { ageMs: n.ageMs, firstTrafficMs: n.firstTrafficMs as number, boundMs: n.boundMs });
  });

  it('control: with the default connection age, a new replica gets no call within the same bound', () => {
    // So the age-outs, not something else, brought the calls to the new replica above.
    const c = run().newReplicaControl;
    expect(c).toBeDefined();
    expect(c?.firstTrafficMs).toBeUndefined();
    expect(c?.failedCalls).toBe(0);
  });
});
