// One fault run: a private MariaDB, two replicas, the steady load of load.ts, the faults
// of faults.ts and db-faults.ts in turn (those of the network to MariaDB with both replicas
// dialling it through a proxy, and their /readyz watched) — each timed to its recovery, followed by a steady window, then
// the ledger checked against MariaDB (a write acknowledged before the check and missing
// from MariaDB is lost, charged to the fault just injected) — and at the end the whole
// ledger against the invariants; before the faults and after them, whether a replica
// started after the clients connected gets their calls (new-replica.ts). Used by
// `npm run bench:faults` and test/chaos/faults.test.ts; the caller owns `procs` (and
// stops them).
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { status } from '@grpc/grpc-js';
import { CONNECT_TIMEOUT_MS } from '../../server/db/pool.js';
import { STOP_GRACE_MS } from '../../server/db/watchdog.js';
import type { RetryClass } from '../../client/methods.js';
import { DB_FAULTS } from './db-faults.js';
import { FAULTS } from './faults.js';
import type { Fault, FaultContext } from './faults.js';
import { checkInvariants } from './invariants.js';
import type { Violation } from './invariants.js';
import { Ledger } from './ledger.js';
import type { AckKind } from './ledger.js';
import { CALLER, Load, SCHEDULING_SLACK_MS } from './load.js';
import { checkNewReplica } from './new-replica.js';
import type { NewReplicaResult } from './new-replica.js';
import type { FaultProcesses } from './processes.js';
import { ReadyzWatch } from './readyz.js';
import type { ReadyzSummary } from './readyz.js';
import { findLateEffects, findLostWrites, lostKey, openDirect } from './verify.js';
import type { LateEffect, LostWrite } from './verify.js';

export interface FaultRunOptions {
  /** Steady load after each fault has recovered (and before the first). */
  phaseMs: number;
  clients: number;
  loopsPerClient: number;
  /** The clients' call deadline (retries included). */
  deadlineMs: number;
  /** How long MariaDB stays SIGSTOPped (must exceed the deadline). */
  stopMs: number;
  /** How long the database blackhole is held (must exceed the deadline and the pool's connect timeout); for db-blackhole. */
  blackholeMs?: number;
  /** The phases to run, by name, in the order of ALL_FAULTS (default: all of them). */
  faults?: readonly string[];
  /** Settings of every replica the run starts (a test's shorter SFDB_DATABASE_DOWN_AFTER_MS). */
  replicaEnv?: Record<string, string>;
  /** SFDB_MAX_CONNECTION_AGE_MS of the replacement replicas (the goaway phase and the new-replica check). */
  ageMs: number;
  /** SFDB_MAX_CONNECTION_AGE_GRACE_MS of those (the tier requires more than the longest long-poll, 30 s). */
  graceMs: number;
  /** Run the new-replica check after the faults (and its control before them). */
  newReplica: boolean;
  /** Write the whole ledger (acks and failures, one JSON object a line) to this file. */
  ledgerFile?: string;
  log: (message: string) => void;
}

export interface PhaseResult {
  fault: string;
  description: string;
  /** When the fault began (wall ms; the ledger's times are on the same clock). */
  faultAt: number;
  /** How long the fault was held (ms): kill → MariaDB answers, the stop, SIGTERM → exit. */
  heldMs: number;
  /** Fault → first acknowledged write sent after it; null: none within the wait (never recovered). */
  recoverMs: number | null;
  /** The same from the fault's end (at + held); null: none within the wait. */
  recoverAfterEndMs: number | null;
  boundMs: number | null;
  /** A replacement replica: ready → first call of the load served by it. */
  rejoinMs?: number | null;
  /** Longest stretch of the phase without an acknowledged write. */
  longestGapMs: number;
  durationMs: number;
  /** The driver's own event-loop delay over the phase (max, ms): every time above is measured by it, so is late by up to this. */
  driverLagMaxMs: number;
  callsOk: number;
  callsFailed: number;
  failedByClass: Record<RetryClass, number>;
  failedByMethod: Record<string, number>;
  /** The failures by what the client said, addresses and timings left out ('Stream refused by server', 'read ECONNRESET', ...). */
  failedByReason: Record<string, number>;
  /** The failures by gRPC status ('UNAVAILABLE', 'DEADLINE_EXCEEDED', 'INTERNAL', ...). */
  failedByCode: Record<string, number>;
  /** Failures whose trailers said nothing of the call took effect (x-sfdb-no-effect: 1). */
  noEffect: number;
  /** Calls that settled later than their deadline and the scheduling slack (load.ts). */
  late: number;
  longestCallMs: number;
  /** /readyz of the replicas through a fault of the network to MariaDB. */
  readyz?: ReadyzSummary;
  /** A few failure messages, for the reader. */
  failureSamples: string[];
  refused: number;
  writesAcked: number;
  writesLost: number;
  lost: LostWrite[];
  /** Failed writes that took effect after their call's deadline and LATE_EFFECT_ALLOWANCE_MS (a few, and how many). */
  lateEffects: LateEffect[];
  lateEffectCount: number;
}

export interface FaultRunResult {
  options: Omit<FaultRunOptions, 'log'>;
  startedAt: string;
  phases: PhaseResult[];
  acked: Record<AckKind, number>;
  claimsRequeued: number;
  violations: Violation[];
  /** Lost writes found by the final check that no phase check had seen. */
  lostAtEnd: LostWrite[];
  newReplica?: NewReplicaResult;
  /** The same check before the faults, against replicas with the default connection age: no call expected. */
  newReplicaControl?: NewReplicaResult;
}

const RECOVERY_WAIT_MS = 60_000;

/** Every phase a run can have, in the order it runs them. */
export const ALL_FAULTS: readonly Fault[] = [...FAULTS, ...DB_FAULTS];

/** The run's result, or a failure carrying the run's log when it did not finish (for the tests that read it). */
export function finished(result: FaultRunResult | undefined, log: readonly string[]): FaultRunResult {
  if (!result) throw new Error(`the fault run did not finish:\n${log.join('\n')}`);
  return result;
}

/** The phase of `result` named `name`. */
export function phaseNamed(result: FaultRunResult, name: string): PhaseResult {
  const p = result.phases.find((x) => x.fault === name);
  if (!p) throw new Error(`no phase ${name}`);
  return p;
}

/** 'Enqueue: Deadline exceeded after 2.003s,remote_addr=127.0.0.1:45707' → 'Deadline exceeded'. */
export function reasonOf(message: string): string {
  return message
    .replace(/^\w+: /, '')
    .replace(/ after [\d.]+s.*$/, '')
    .replace(/,\s*remote_addr=.*$/, '')
    .replace(/ \(deadline reached while retrying\)$/, '')
    .slice(0, 80);
}

/** Polls `test` (async) every 100 ms for at most `timeoutMs`; the elapsed ms, or null. */
async function within(test: () => Promise<boolean>, timeoutMs: number): Promise<number | null> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (await test().catch(() => false)) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

/**
 * How long after its call's deadline a failed write may still take effect: the tier stops
 * a statement at the deadline and, when that cannot reach MariaDB, resets its connection
 * STOP_GRACE_MS later (server/db/watchdog.ts); plus this machine's scheduling slack.
 */
const LATE_EFFECT_ALLOWANCE_MS = STOP_GRACE_MS + SCHEDULING_SLACK_MS;

async function lostWrites(procs: FaultProcesses, ledger: Ledger, upTo: number): Promise<LostWrite[]> {
  const conn = await openDirect(procs.mariadb.url);
  try {
    return await findLostWrites(conn, ledger.ackedBefore(upTo));
  } finally {
    await conn.end();
  }
}

async function lateEffects(procs: FaultProcesses, ledger: Ledger, phase: string, deadlineMs: number): Promise<LateEffect[]> {
  const conn = await openDirect(procs.mariadb.url);
  try {
    return await findLateEffects(conn, ledger.failures.filter((f) => f.phase === phase), deadlineMs, LATE_EFFECT_ALLOWANCE_MS);
  } finally {
    await conn.end();
  }
}

export async function runFaults(procs: FaultProcesses, opts: FaultRunOptions): Promise<FaultRunResult> {
  if (opts.stopMs <= opts.deadlineMs) throw new Error(`the SIGSTOP (${opts.stopMs} ms) must outlast the deadline (${opts.deadlineMs} ms)`);
  const unknown = (opts.faults ?? []).filter((n) => !ALL_FAULTS.some((f) => f.name === n));
  if (unknown.length > 0) throw new Error(`no such phase: ${unknown.join(', ')} (the phases: ${ALL_FAULTS.map((f) => f.name).join(', ')})`);
  const faults = ALL_FAULTS.filter((f) => opts.faults?.includes(f.name) ?? true);
  // Each of the pool's bounds must pass inside the blackhole: a statement's deadline and
  // the grace before its connection is reset, then a new connection's connect timeout.
  const blackholeFloor = opts.deadlineMs + STOP_GRACE_MS + CONNECT_TIMEOUT_MS;
  if (faults.some((f) => f.name === 'db-blackhole') && !((opts.blackholeMs ?? 0) > blackholeFloor)) {
    throw new Error(`the blackhole (${opts.blackholeMs ?? 0} ms) must outlast the deadline, the watchdog's grace and the connect timeout (${blackholeFloor} ms)`);
  }
  const log = opts.log;
  const startedAt = new Date().toISOString();
  await procs.start({ databaseProxy: faults.some((f) => f.viaProxy) });
  const base = { SFDB_DRAIN_GRACE_MS: '5000', ...opts.replicaEnv };
  log('starting replicas a and b');
  const [a, b] = await Promise.all([procs.startReplica('a', base), procs.startReplica('b', base)]);
  const ledger = new Ledger();
  const load = new Load(ledger, {
    targets: [a.grpcAddress, b.grpcAddress],
    clients: opts.clients,
    loopsPerClient: opts.loopsPerClient,
    deadlineMs: opts.deadlineMs,
    claimLeaseMs: 2000,
    leaseTtlMs: 2000,
    sweepEveryMs: 500,
    configKeys: 2,
  });
  const shortAge = { SFDB_MAX_CONNECTION_AGE_MS: String(opts.ageMs), SFDB_MAX_CONNECTION_AGE_GRACE_MS: String(opts.graceMs) };
  const ctx: FaultContext = {
    procs,
    deadlineMs: opts.deadlineMs,
    stopMs: opts.stopMs,
    faultMs: opts.phaseMs,
    blackholeMs: opts.blackholeMs ?? 0,
    replacementEnv: { ...base, ...shortAge },
    log,
  };
  // The new replica's bound: the oldest connection ages out (age + 10 % jitter), then a
  // re-resolution (rate-limited to one a second), a connect, a scrape: 3 s of slack.
  const newReplicaBoundMs = Math.round(opts.ageMs * 1.1) + 3000;
  let newReplicaControl: NewReplicaResult | undefined;
  if (opts.newReplica) {
    newReplicaControl = await checkNewReplica(procs, {
      existing: ['a', 'b'],
      ageMs: 300_000, // a and b run with the tier's defaults
      graceMs: 60_000,
      name: 'control',
      env: shortAge,
      boundMs: newReplicaBoundMs,
      waitMs: newReplicaBoundMs,
      clients: 2,
      deadlineMs: opts.deadlineMs,
      log,
    });
    await procs.signalReplica('control', 'SIGTERM', 30_000);
    log(`new replica, control (default age): first call after ${newReplicaControl.firstTrafficMs ?? 'none'} ms within ${newReplicaBoundMs} ms`);
  }
  const phases: PhaseResult[] = [];
  const seen = new Set<string>();
  load.start();
  try {
    await Ledger.until(() => ledger.acks.length >= 50, 30_000, 'the load to get its first writes acknowledged');
    for (const fault of faults) {
      ledger.phase = fault.name;
      const lag = monitorEventLoopDelay({ resolution: 10 });
      lag.enable();
      log(`${fault.name}: ${fault.description}`);
      const readyz = fault.viaProxy ? new ReadyzWatch(procs) : undefined;
      const injected = await fault.inject(ctx).catch(async (err: unknown) => {
        await readyz?.stop();
        throw err;
      });
      const endedAt = injected.at + injected.heldMs;
      const boundMs = fault.bound(injected.heldMs, opts.deadlineMs) ?? null;
      let recoverMs: number | null = null;
      let recoverAfterEndMs: number | null = null;
      if (boundMs !== null) {
        await Ledger.until(() => ledger.firstAckSentFrom(endedAt) !== undefined, RECOVERY_WAIT_MS, `the first write after ${fault.name}`).catch(() => undefined);
        const first = ledger.firstAckSentFrom(injected.at);
        recoverMs = first ? first.ackAt - injected.at : null;
        const firstAfterEnd = ledger.firstAckSentFrom(endedAt);
        recoverAfterEndMs = firstAfterEnd ? firstAfterEnd.ackAt - endedAt : null;
      }
      let rejoinMs: number | null | undefined;
      if (injected.restarting) {
        const name = await injected.restarting;
        rejoinMs = await within(async () => (await procs.requestsServed(name, CALLER)) > 0, 30_000);
      }
      // The steady window after recovery: the phase's length, chosen.
      await new Promise((r) => setTimeout(r, fault.name === 'goaway' ? Math.max(opts.phaseMs, 3 * opts.ageMs) : opts.phaseMs));
      const end = Date.now();
      lag.disable();
      await readyz?.stop();
      const lost = (await lostWrites(procs, ledger, end)).filter((l) => !seen.has(lostKey(l)));
      for (const l of lost) seen.add(lostKey(l));
      const late = await lateEffects(procs, ledger, fault.name, opts.deadlineMs);
      const failures = ledger.failures.filter((f) => f.phase === fault.name);
      const counts = ledger.phaseCounts(fault.name);
      const byMethod: Record<string, number> = {};
      const byReason: Record<string, number> = {};
      const byCode: Record<string, number> = {};
      for (const f of failures) {
        byMethod[f.method] = (byMethod[f.method] ?? 0) + 1;
        byReason[reasonOf(f.message)] = (byReason[reasonOf(f.message)] ?? 0) + 1;
        const code = f.code === undefined ? 'none' : (status[f.code] ?? String(f.code));
        byCode[code] = (byCode[code] ?? 0) + 1;
      }
      const phase: PhaseResult = {
        fault: fault.name,
        description: fault.description,
        faultAt: injected.at,
        heldMs: injected.heldMs,
        recoverMs,
        recoverAfterEndMs,
        boundMs,
        ...(rejoinMs !== undefined ? { rejoinMs } : {}),
        longestGapMs: ledger.longestGap(injected.at, end),
        durationMs: end - injected.at,
        driverLagMaxMs: Math.round(lag.max / 1e6),
        callsOk: counts.ok,
        callsFailed: counts.failed,
        failedByClass: {
          read: failures.filter((f) => f.retryClass === 'read').length,
          idempotent: failures.filter((f) => f.retryClass === 'idempotent').length,
          once: failures.filter((f) => f.retryClass === 'once').length,
        },
        failedByMethod: byMethod,
        failedByReason: byReason,
        failedByCode: byCode,
        noEffect: failures.filter((f) => f.noEffect).length,
        late: counts.late,
        longestCallMs: counts.longestCallMs,
        ...(readyz ? { readyz: readyz.summary(injected.at, endedAt, end) } : {}),
        failureSamples: [...new Set(failures.map((f) => `${f.method}: ${f.error} ${f.message}`))].slice(0, 5),
        refused: counts.refused,
        writesAcked: ledger.acks.filter((x) => x.phase === fault.name).length,
        writesLost: lost.length,
        lost: lost.slice(0, 20),
        lateEffects: late.slice(0, 10),
        lateEffectCount: late.length,
      };
      phases.push(phase);
      log(
        `${fault.name} (at ${injected.at}): held ${phase.heldMs} ms, recovered ${phase.recoverMs ?? '-'} ms (bound ${phase.boundMs ?? '-'}; ` +
          `${phase.recoverAfterEndMs ?? '-'} ms after its end), longest gap ${phase.longestGapMs} ms, ${phase.callsOk} ok, ${phase.callsFailed} failed ` +
          `${JSON.stringify(byCode)}, ${phase.late} late, ${phase.writesLost} lost, ${phase.lateEffectCount} failed writes took effect late${phase.readyz ? `, readyz ${JSON.stringify(phase.readyz)}` : ''}`,
      );
      for (const f of phase.failureSamples) log(`  failed: ${f}`);
    }
  } finally {
    ledger.phase = 'final';
    await load.stop();
  }
  const lostAtEnd = (await lostWrites(procs, ledger, Date.now())).filter((l) => !seen.has(lostKey(l)));
  const violations = checkInvariants(ledger.acks);
  if (opts.ledgerFile) {
    writeFileSync(opts.ledgerFile, [...ledger.acks, ...ledger.failures.map((f) => ({ kind: 'failure', ...f }))].map((x) => JSON.stringify(x)).join('\n') + '\n');
    log(`wrote the ledger to ${opts.ledgerFile}`);
  }
  const acked = { node: 0, enqueue: 0, claim: 0, resolve: 0, config: 0, lease: 0, heartbeat: 0, daemon_state: 0, attribute: 0 } as Record<AckKind, number>;
  for (const x of ledger.acks) acked[x.kind] += 1;
  log(`ledger: ${ledger.acks.length} acknowledged writes, ${violations.length} invariant violations, ${lostAtEnd.length} lost at the final check`);

  let newReplica: NewReplicaResult | undefined;
  if (opts.newReplica) {
    newReplica = await checkNewReplica(procs, {
      existing: ['a', 'b'],
      ageMs: opts.ageMs,
      graceMs: opts.graceMs,
      name: 'c',
      env: shortAge,
      boundMs: newReplicaBoundMs,
      clients: 2,
      deadlineMs: opts.deadlineMs,
      log,
    });
    log(`new replica: first traffic after ${newReplica.firstTrafficMs ?? 'never'} ms (bound ${newReplica.boundMs} ms)`);
  }
  const { log: _log, ...options } = opts;
  return { options, startedAt, phases, acked, claimsRequeued: load.requeued, violations, lostAtEnd, newReplica, newReplicaControl };
}
