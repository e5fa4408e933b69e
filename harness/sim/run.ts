// One simulated run (harness/sim/): the seed's plan played against the real client and
// daemon code over the simulated tier, and the duties checked as it goes and at its end.
// A run is a pure function of its seed: the same seed gives the same violations and the
// same trace.
//
// The duties (each violation names one):
// - stop-heard: an operator stop (STOPPING with the operator hold, written through a live
//   replica) is heard — the daemon's hooks.stopRequested('operator') fires, or, not yet
//   running, its hold is noticed — within STOP_HEARD_MS (feed mode; polling:
//   STOP_HEARD_POLLING_MS) of `answerableAt` (below); with a second fault meanwhile — a
//   live replica drew a call fault for the daemon, or a second replica's fault (its
//   reconnect after a restart included) overlapped the first's — within SECOND_FAULT_MS
//   more (a read's last hedge's deadline and the next read);
// - stop-recorded: the stopped daemon records STOPPED within STOP_TIMEOUT_MS of the later
//   of the hearing and `answerableAt`;
// - item-lost: after the heal, by RUN_END_MS + DRAIN_MS, every item of a running queues
//   daemon is SUCCEEDED or FAILED; one of a stopped daemon is not left claimed;
// - item-fence: a job's work is never done after its daemon was answered that its claim
//   moved on (a fenced RenewClaim), and the tier accepts one Resolve per item;
// - lease-two-holders: never two keepers (nor two cluster daemons) holding a lease by
//   their own deadline at the same instant;
// - cache-stale: no cached blob served older than the version current CACHE_BOUND_MS
//   before; and on the feed, none older than a version written before the reader's feed
//   sent a long-poll (with a cursor) whose answer arrived before the read was issued: the
//   feed has then covered that write, whatever the cache loaded before its first cursor
//   (client/cache-feed.ts).
import type * as grpc from '@grpc/grpc-js';
import { status } from '@grpc/grpc-js';
import { HEDGE_AFTER_MS } from '../../client/hedge.js';
import { OWED_RETRY_BASE_MS } from '../../daemons/own-state.js';
import { RECONNECT_MAX_MS } from './channel.js';
import type { CallFaults, SimNet } from './channel.js';
import { drawPlan, HEAL_AT_MS, planUuid, RUN_END_MS } from './plan.js';
import type { Plan } from './plan.js';
import { buildProcesses, NODE_A, NODE_B, SIM_CACHE_TTL_MS, SIM_DAEMON_SETTINGS, SIM_LEASE, SIM_DEADLINE_MS, startCacheReader } from './processes.js';
import { PEER_PROBE_MS, PEER_UNRESPONSIVE_MS, ReplicaSet } from './replicas.js';
import { SimScheduler, seededRandom } from './scheduler.js';
import { SimDatabase } from './tier.js';
import { Trace } from './trace.js';

export type Duty = 'stop-heard' | 'stop-recorded' | 'item-lost' | 'item-fence' | 'lease-two-holders' | 'cache-stale';
export const DUTIES: readonly Duty[] = ['stop-heard', 'stop-recorded', 'item-lost', 'item-fence', 'lease-two-holders', 'cache-stale'];

/** The duty of an operator stop in feed mode: heard within 2 s (docs/daemons.md, issue 36). */
export const STOP_HEARD_MS = 2000;
/**
 * Polling (anchor mode, the feed's fallback): within the poll interval plus one idle tick, as
 * daemons/idle.ts promises, plus the hedge's delay — a poll sent to a silent replica that no
 * watch has yet named (polling has none) is answered by its hedge (docs/daemons.md).
 */
export const STOP_HEARD_POLLING_MS = SIM_DAEMON_SETTINGS.daemonStatePollMs + SIM_DAEMON_SETTINGS.idleTickMs + HEDGE_AFTER_MS;
/**
 * A stopped daemon's STOPPED, by the supervisor's stop timeout (systemd's TimeoutStopSec and
 * Kubernetes' terminationGracePeriodSeconds, 30 s: docs/deploying.md): onStop (jobs see
 * their signal at once, but a release can wait on a silent replica for its deadline) and
 * then the report, retried for up to SFDB_DAEMON_STOP_REPORT_MS.
 */
export const STOP_TIMEOUT_MS = 30_000;
/**
 * How long after a replica goes silent the live ones name it (their probe's bound and
 * one probe round, server/changefeed/peer-probe.ts): before then no client can know
 * where not to ask, so the stop's clock starts no earlier.
 */
export const PEER_DETECTION_MS = PEER_UNRESPONSIVE_MS + PEER_PROBE_MS;
/**
 * A cached blob may be served until its TTL after it was stored, and it was read at most
 * a call deadline before it was stored (a late answer): docs/client.md, "Static-object
 * cache" — the feed only shortens this.
 */
export const CACHE_BOUND_MS = SIM_CACHE_TTL_MS + SIM_DEADLINE_MS;
/**
 * The stop duty's allowance for a second fault: a read whose every call hangs (on the
 * silent replica, and on a live one by a second fault) fails at its last hedge's deadline,
 * 3 × HEDGE_AFTER_MS + the deadline after it began, and the next read follows
 * OWED_RETRY_BASE_MS later (its own hedge is in the bound already); a long-poll a live
 * replica answers late holds what it carries less long than that. The promise of 2 s is
 * for one faulty replica (docs/daemons.md).
 */
export const SECOND_FAULT_MS = 3 * HEDGE_AFTER_MS + SIM_DEADLINE_MS + OWED_RETRY_BASE_MS;
/** Past RUN_END_MS, time for the items still queued or running (a queue backlog of 20 s jobs) to end. */
export const DRAIN_MS = 120_000;

export interface Violation {
  duty: Duty;
  seed: number;
  /** Sim time (ms). */
  at: number;
  message: string;
  trace: string[];
}

export interface RunResult {
  seed: number;
  plan: Plan;
  violations: Violation[];
  /** Timer events the scheduler ran, and the real event-loop turns they took. */
  events: number;
  turns: number;
}

export interface RunOptions {
  /** Trace lines kept with a violation (default 40). */
  traceLines?: number;
}

/** The first sim time ≥ `from` at which some replica is up and every silent one has been silent PEER_DETECTION_MS: when a live replica could answer and tell where not to ask. */
function answerableAt(plan: Plan, from: number): number {
  let t = from;
  for (let guard = 0; guard < 100; guard++) {
    const silent = plan.episodes.filter((e) => e.at <= t && t < e.at + e.ms);
    const up = plan.replicas - new Set(silent.map((e) => e.replica)).size > 0;
    const late = silent.filter((e) => e.status !== 'killed' && t < e.at + PEER_DETECTION_MS);
    if (up && late.length === 0) return t;
    t = Math.min(...silent.map((e) => (e.status !== 'killed' && t < e.at + PEER_DETECTION_MS ? e.at + PEER_DETECTION_MS : e.at + e.ms)));
  }
  return t;
}

/**
 * How many replicas had a fault episode in [from, to]: silent, killed, or reconnecting
 * after a restart (a client connects again up to RECONNECT_MAX_MS after it is back).
 */
function faultyReplicas(plan: Plan, from: number, to: number): number {
  const faulty = new Set<number>();
  for (const e of plan.episodes) {
    const end = e.at + e.ms + (e.status === 'killed' ? RECONNECT_MAX_MS : 0);
    if (e.at <= to && end >= from) faulty.add(e.replica);
  }
  return faulty.size;
}

export async function runSeed(seed: number, options: RunOptions = {}): Promise<RunResult> {
  const sched = new SimScheduler(seededRandom(seed));
  // Before anything is built: a keeper takes Math.random when it is made.
  sched.install();
  try {
    return await play(seed, sched, options);
  } catch (err) {
    throw new Error(`seed ${seed}: ${(err as Error).message} (replay: ${replayCommand(seed)})`, { cause: err });
  } finally {
    sched.uninstall();
  }
}

async function play(seed: number, sched: SimScheduler, options: RunOptions): Promise<RunResult> {
  const plan = drawPlan(seed, seededRandom(seed ^ 0x2545f491));
  const random = seededRandom(seed ^ 0x5bd1e995);
  const trace = new Trace();
  const traceLines = options.traceLines ?? 40;
  const db = new SimDatabase(() => sched.now());
  const replicas = new ReplicaSet(plan.replicas, sched, db, random);
  const faults: CallFaults = { rate: plan.callFaultRate, enabled: plan.callFaultRate > 0 };
  const violations: Violation[] = [];
  const violate = (duty: Duty, message: string, window?: Parameters<Trace['lines']>[1]): void => {
    if (violations.some((v) => v.duty === duty)) return;
    violations.push({ duty, seed, at: sched.now(), message, trace: trace.lines(traceLines, window) });
  };
  /** When a live replica drew a call fault for each process's calls. */
  const faultsOf = new Map<string, number[]>();
  /** Claims whose daemon was answered that they moved on: `${id}/${epoch}`. */
  const fenced = new Set<string>();
  const net: SimNet = {
    sched,
    db,
    replicas,
    random,
    faults,
    trace,
    delivered: (_process, method, request, err: grpc.ServiceError | null) => {
      if (err?.code === status.FAILED_PRECONDITION && method === 'RenewClaim') fenced.add(`${String(request['id'])}/${String(request['epoch'])}`);
    },
    faulted: (process) => {
      let times = faultsOf.get(process);
      if (!times) faultsOf.set(process, (times = []));
      times.push(sched.now());
    },
  };
  db.scheduleLeaseEnd = (name, at) => void sched.after(at - sched.now(), () => db.announceLeaseEnd(name, at));

  db.nodes.set(NODE_A, { fqdn: 'a.sim', createdAt: 0 });
  db.nodes.set(NODE_B, { fqdn: 'b.sim', createdAt: 0 });
  const blob = planUuid(random);
  db.createBlob(blob);

  const effects = {
    commit: (id: string, epoch: string): void => {
      trace.add(sched.now(), `job ${id.slice(0, 8)} epoch ${epoch}: work done`);
      if (fenced.has(`${id}/${epoch}`)) violate('item-fence', `item ${id}: its job at epoch ${epoch} did its work after RenewClaim answered that the claim moved on`);
    },
  };
  const procs = buildProcesses(net, plan.stop.target, plan.feed, effects);

  // The plan's events.
  for (const e of plan.episodes) {
    const r = replicas.replicas[e.replica];
    if (!r) continue;
    sched.after(e.at, () => {
      trace.add(sched.now(), `r${e.replica} ${e.restart ? 'restarting' : e.status} for ${Math.round(e.ms)} ms`);
      replicas.set(r, e.status);
    });
    sched.after(e.at + e.ms, () => {
      trace.add(sched.now(), `r${e.replica} up`);
      replicas.set(r, 'up');
    });
  }
  sched.after(HEAL_AT_MS, () => {
    faults.enabled = false;
    trace.add(sched.now(), 'faults healed');
  });
  for (const j of plan.jobs) {
    sched.after(j.at, () => {
      db.enqueue(j.id, j.node === 'A' ? NODE_A : NODE_B, 'work', { ms: Math.round(j.ms), fails: j.fails });
      trace.add(sched.now(), `enqueued ${j.id.slice(0, 8)} on ${j.node} (${Math.round(j.ms)} ms${j.fails ? ', fails' : ''})`);
    });
  }
  for (const at of plan.blobUpdates) sched.after(at, () => trace.add(sched.now(), `blob updated to version ${db.updateBlob(blob)}`));
  // The reader's long-polls (with a cursor) answered so far: the latest one's send time.
  let coveredBefore = Number.NEGATIVE_INFINITY;
  const polls: { sentAt: number; answeredAt: number }[] = [];
  startCacheReader(
    net,
    blob,
    plan.feed && plan.cacheFeed,
    (version, issuedAt) => {
      const t = sched.now();
      const history = db.blobs.get(blob)?.history ?? [];
      const due = history.filter((h) => h.at <= t - CACHE_BOUND_MS).pop();
      if (due && version < due.version) violate('cache-stale', `blob served at version ${version}, though version ${due.version} was written at ${(due.at / 1000).toFixed(3)} s, more than ${CACHE_BOUND_MS} ms before`);
      for (const p of polls) if (p.answeredAt < issuedAt) coveredBefore = Math.max(coveredBefore, p.sentAt);
      const heard = history.filter((h) => h.at < coveredBefore).pop();
      if (heard && version < heard.version) {
        violate('cache-stale', `blob served at version ${version} (read issued at ${(issuedAt / 1000).toFixed(3)} s), though version ${heard.version} was written at ${(heard.at / 1000).toFixed(3)} s, before the reader's feed sent a poll answered by then`);
      }
    },
    (sentAt) => {
      polls.push({ sentAt, answeredAt: sched.now() });
    },
  );

  // The operator's stop: through a live replica, once the daemon has started.
  const target = procs.daemons.get(`${plan.stop.target}@A`);
  let stopWrittenAt: number | undefined;
  const writeStop = (): void => {
    if (procs.stop.startedAt === undefined || !replicas.anyUp()) {
      sched.after(100, writeStop);
      return;
    }
    stopWrittenAt = sched.now();
    db.setDaemonState({ nodeUuid: NODE_A, daemon: plan.stop.target, state: 'STOPPING', message: 'operator stop', operatorHold: 'OPERATOR_HOLD_SET' }, { daemon: 'sf-ctl', node: '' });
    trace.add(sched.now(), `operator: stop ${plan.stop.target}@A (hold set)`);
  };
  sched.after(plan.stop.at, writeStop);

  procs.start();
  const check = (): void => {
    const holders = procs.keepers.filter((k) => k.isHolder());
    if (holders.length > 1) {
      const tokens = holders.map((k) => k.snapshot().token).join(', ');
      violate('lease-two-holders', `two keepers hold ${SIM_LEASE} by their own deadline at once (tokens ${tokens}; the tier's: ${db.leases.get(SIM_LEASE)?.token})`);
    }
    if (procs.clusters.every((c) => c.isElected())) violate('lease-two-holders', 'both cluster daemons hold the maintenance lease by their own deadline at once');
  };
  await sched.runUntil(RUN_END_MS, check);

  // Time for the last items: until every one is done (or may wait: its daemon was stopped), DRAIN_MS at most.
  const target0 = procs.daemons.get(`${plan.stop.target}@A`);
  const waiting = (): boolean => {
    const queuesAStopped = plan.stop.target === 'queues' && target0?.snapshot().state === 'stopped';
    return [...db.items.values()].some((i) => i.state !== 'SUCCEEDED' && i.state !== 'FAILED' && !(queuesAStopped && i.node === NODE_A));
  };
  for (let t = RUN_END_MS; t < RUN_END_MS + DRAIN_MS && waiting(); t += 5000) await sched.runUntil(t + 5000, check);
  // What is checked at the end.
  if (stopWrittenAt !== undefined) {
    const written = stopWrittenAt;
    const from = answerableAt(plan, written);
    // The stopped daemon's story around the stop: its calls, its hooks, the operator, the replicas.
    const label = `${plan.stop.target}@A`;
    const story = { from: stopWrittenAt - 3000, to: Math.max(stopWrittenAt, from) + STOP_TIMEOUT_MS, keep: (text: string) => text.startsWith(label) || /^(operator|r\d )/.test(text) };
    const heard = procs.stop.heardAt;
    if (heard === undefined) violate('stop-heard', `the operator stop of ${label} written at ${(stopWrittenAt / 1000).toFixed(3)} s was never heard (a live replica could answer from ${(from / 1000).toFixed(3)} s)`, story);
    const secondFault =
      heard !== undefined && ((faultsOf.get(label) ?? []).some((t) => t >= written - SIM_DEADLINE_MS && t <= heard) || faultyReplicas(plan, written - SIM_DEADLINE_MS, heard) > 1);
    const bound = (plan.feed ? STOP_HEARD_MS : STOP_HEARD_POLLING_MS) + (secondFault ? SECOND_FAULT_MS : 0);
    if (heard !== undefined && heard - from > bound) violate('stop-heard', `the operator stop of ${label} (${plan.feed ? 'feed mode' : 'polling'}) was heard ${Math.round(heard - from)} ms after a live replica could answer (bound ${bound} ms${secondFault ? ', with a second fault' : ''})`, story);
    const row = db.daemonRow(NODE_A, plan.stop.target);
    const stoppedBy = Math.max(heard ?? Infinity, from) + STOP_TIMEOUT_MS;
    if (heard !== undefined && (row?.state !== 'STOPPED' || row.updatedAt > stoppedBy)) {
      violate('stop-recorded', `${plan.stop.target}@A heard its stop at ${(heard / 1000).toFixed(3)} s but ${row?.state === 'STOPPED' ? `recorded STOPPED only at ${(row.updatedAt / 1000).toFixed(3)} s` : `its state is ${row?.state}`} (bound ${(stoppedBy / 1000).toFixed(3)} s)`, story);
    }
  }
  const queuesAStopped = plan.stop.target === 'queues' && target?.snapshot().state === 'stopped';
  for (const item of db.items.values()) {
    if (item.resolvedBy.length > 1) violate('item-fence', `item ${item.id} resolved by epochs ${item.resolvedBy.join(', ')}`);
    const done = item.state === 'SUCCEEDED' || item.state === 'FAILED';
    const mayWait = item.node === NODE_A && queuesAStopped && item.state === 'QUEUED';
    if (!done && !mayWait) violate('item-lost', `item ${item.id} on ${item.node === NODE_A ? 'A' : 'B'} is ${item.state} at epoch ${item.epoch} after ${attemptsText(item.attempts)}, ${DRAIN_MS / 1000} s past the run's end; its story: ${item.story.join('; ')}`);
  }
  return { seed, plan, violations, events: sched.events, turns: sched.turns };
}

function attemptsText(n: number): string {
  return n === 1 ? '1 attempt' : `${n} attempts`;
}

/** The command that replays a seed. */
export function replayCommand(seed: number): string {
  return `npm run bench:sim -- --seed ${seed}`;
}
