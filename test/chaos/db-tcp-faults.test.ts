// The network between the tier and MariaDB, faulted under load with a ledger: the driver
// of `npm run bench:faults` with short phases and only these faults. Its own mariadbd and
// two real replicas that dial it through a TCP proxy of the test's
// (harness/tcp-proxy.ts); while several clients write checkable things (ids chosen
// here: Enqueue, CreateNode; NodeHeartbeat, SetNodeDaemonState and SetObjectAttributes
// group-committed; claims, leases, config versions), the proxy adds 200 ms each way,
// blackholes everything, then resets every connection. Every acknowledged write must be
// in MariaDB afterwards; no call is answered INTERNAL or after its deadline, a failure is
// UNAVAILABLE or the deadline passing; no failed write takes effect after its deadline;
// /readyz is 503 through the blackhole and 200 within seconds after it; and the same
// replicas write again within DB_RECOVERY_TARGET_MS of each fault's end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_RECOVERY_TARGET_MS } from '../../bench/faults/db-faults.js';
import type { FaultRunResult, PhaseResult } from '../../bench/faults/driver.js';
import { renderSummary, renderTable } from '../../bench/faults/report.js';
import { LedgerRun } from '../helpers/fault-ledger.js';
import { recordFigure } from '../helpers/figures.js';

/**
 * Shorter than the bench's 20 s, and still longer by a clear margin (2 s) than every bound
 * that must pass inside it: the deadline (2 s), the watchdog's grace before it resets a
 * statement's connection (STOP_GRACE_MS, 1 s), then a new connection's connect timeout
 * (CONNECT_TIMEOUT_MS, 5 s) — runFaults refuses a blackhole under their 8 s.
 */
const BLACKHOLE_MS = 10_000;
/** The replicas judge MariaDB unreachable this long into the blackhole (/readyz says so; health NOT_SERVING). */
const DOWN_AFTER_MS = 3000;
/** Scheduling slack on top of a bound: the replicas, MariaDB, the proxy, the clients and other test files share 2 cores. */
const SLACK_MS = 2000;
const PHASES = ['steady', 'db-latency', 'db-blackhole', 'db-reset'];

const ledger = new LedgerRun();
const log = ledger.log;
/** The replicas (name-serial) still running when the run ended: a restarted one would have a new serial. */
let sameReplicas: string[] = [];

beforeAll(async () => {
  const result = await ledger.run({
    blackholeMs: BLACKHOLE_MS,
    ageMs: 2000,
    newReplica: false,
    faults: PHASES,
    replicaEnv: { SFDB_DATABASE_DOWN_AFTER_MS: String(DOWN_AFTER_MS) },
  });
  const replicas = [...(ledger.procs?.replicas.values() ?? [])];
  sameReplicas = replicas.filter((r) => r.proc.exitCode === null && r.proc.signalCode === null).map((r) => r.id.replace(/^faults-\d+-/, ''));
  console.log(`${renderTable(result)}\n${renderSummary(result)}`);
}, 180_000);

afterAll(async () => {
  await ledger.stop();
}, 60_000);

const run = (): FaultRunResult => ledger.finished();
const phase = (name: string): PhaseResult => ledger.phase(name);

const FAULTS = PHASES.slice(1);

describe('faults of the network between the tier and MariaDB, under load', () => {
  it('ran every fault under a load that kept writing, on the same two replicas throughout', () => {
    expect(run().phases.map((p) => p.fault)).toEqual(PHASES);
    for (const p of run().phases) expect(p.writesAcked, `${p.fault}: writes acknowledged`).toBeGreaterThan(20);
    for (const kind of ['enqueue', 'node', 'heartbeat', 'daemon_state'] as const) expect(run().acked[kind], `${kind} writes acknowledged`).toBeGreaterThan(0);
    // No replica was restarted (or died): the pools recovered by themselves.
    expect(sameReplicas.sort()).toEqual(['a-1', 'b-2']);
  });

  it.each(PHASES)('%s: no acknowledged write is lost', (name) => {
    expect(phase(name).lost).toEqual([]);
    expect(phase(name).writesLost).toBe(0);
  });

  it('the whole ledger is in MariaDB at the end, and keeps its invariants', () => {
    expect(run().lostAtEnd).toEqual([]);
    expect(run().violations).toEqual([]);
  });

  it.each(PHASES)('%s: no call answered INTERNAL or after its deadline; a failure is UNAVAILABLE or its deadline passing', (name) => {
    const p = phase(name);
    expect(p.failedByCode['INTERNAL'] ?? 0, p.failureSamples.join('\n')).toBe(0);
    expect(p.late, `${name}: calls settled after their deadline (the longest ${p.longestCallMs} ms)`).toBe(0);
    const other = Object.keys(p.failedByCode).filter((code) => code !== 'UNAVAILABLE' && code !== 'DEADLINE_EXCEEDED');
    expect(other, p.failureSamples.join('\n')).toEqual([]);
  });

  it.each(PHASES)('%s: no failed write took effect after its deadline (the tier stops, or gives up, a statement it cannot stop)', (name) => {
    expect(phase(name).lateEffects).toEqual([]);
  });

  it.each(FAULTS)('%s: the same replicas write again within the target of the fault\'s end', (name) => {
    const p = phase(name);
    expect(p.recoverAfterEndMs, `${name}: no acknowledged write after the fault\n${log.join('\n')}`).not.toBeNull();
    expect(p.recoverAfterEndMs as number).toBeLessThanOrEqual(DB_RECOVERY_TARGET_MS);
    expect(p.recoverMs as number).toBeLessThanOrEqual((p.boundMs as number) + SLACK_MS);
    recordFigure(`faults-${name}`, { heldMs: p.heldMs, recoverMs: p.recoverMs as number, recoverAfterEndMs: p.recoverAfterEndMs as number, failed: p.callsFailed, ok: p.callsOk });
  });

  it('db-blackhole: /readyz answers 503 through it on every replica, judges MariaDB unreachable in time, and 200 within seconds after it', () => {
    const z = phase('db-blackhole').readyz;
    expect(z).toBeDefined();
    if (!z) return;
    expect(z.duringFault['200'] ?? 0, JSON.stringify(z)).toBe(0);
    expect(z.duringFault['503'] ?? 0, JSON.stringify(z)).toBeGreaterThan(0);
    // The idle connections the pool hands over are no answer from MariaDB: the judgement
    // comes DOWN_AFTER_MS into the blackhole however many calls come meanwhile.
    expect(z.judgedDownMs, JSON.stringify(z)).not.toBeNull();
    expect(z.judgedDownMs as number).toBeLessThanOrEqual(DOWN_AFTER_MS + SLACK_MS);
    expect(z.readyAfterEndMs, JSON.stringify(z)).not.toBeNull();
    expect(z.readyAfterEndMs as number).toBeLessThanOrEqual(DB_RECOVERY_TARGET_MS);
  });
});
