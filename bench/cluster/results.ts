// The result of a measured run, and the pure step from raw observations (two scrapes,
// the injections, the simulator's events) to the figures of one mode.
import { NOTICE_DUTIES, evaluateNotices, evaluatePeriods, matchNotices } from './duties.js';
import type { DutyResult, Injection, NoticedEvent, PeriodEvent } from './duties.js';
import { mapCounts, ownStatements, replicaIncrease } from './measure.js';
import type { InjectionCosts, Scrape, StatusCounts } from './measure.js';
import type { Shape } from './options.js';
import { addMaps, counterDelta, pairRates, sumBy } from '../../ops/prom.js';
import { CHANGE_COMMIT, CHANGE_COUNTER, CHANGE_LABEL, QUERY_SECONDS_COUNTER } from '../../proto/runtime/budget.js';
import type { PairRate } from '../../ops/prom.js';
import { CPU_REPORT_MS } from './protocol.js';
import type { CacheFigures, Mode, NoticeDuty, PeriodDuty, SimEvent } from './protocol.js';

/** The caller the benchmark's own RPCs (seed, injections) are counted under. */
export const BENCH_CALLER = 'bench';

/** `--wake-all`: one cluster-config change, heard by every simulated process (feed mode). */
export interface WakeAllResult {
  processes: number;
  /** Processes that reported the change within 10 s. */
  woken: number;
  /** From just before the SetClusterConfig RPC to each process's report (one clock). */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * The start: from just before the simulator was spawned until every simulated daemon had
 * recorded RUNNING (its `ready`), from two scrapes of the replicas. Absent in runs saved
 * before it was recorded.
 */
export interface StartResult {
  seconds: number;
  /** RPCs of the simulated daemons during the start (the benchmark's own left out). */
  calls: number;
  /** Per (operation, caller_daemon), calls (not per second), most first. */
  pairs: { operation: string; callerDaemon: string; calls: number }[];
  /** RPCs that ended non-OK, per (operation, code), most first. */
  errors: { operation: string; code: string; calls: number }[];
  /** Statements the tier ran (database_queries_total, every source). */
  statements: number;
  /** CPU seconds of the replicas (summed) and of mariadbd over the start. */
  tierCpuS: number;
  mariadbCpuS: number;
}

export interface ModeResult {
  mode: Mode;
  wakeAll?: WakeAllResult;
  start?: StartResult;
  /** Seconds between the window's two scrapes. */
  windowS: number;
  /** Simulated daemons, from the simulator's `ready`. */
  daemons: number;
  /** The simulated processes' static-object caches, start to stop, every shard summed; absent without a cache (or in runs saved before it). */
  cache?: CacheFigures;
  tier: {
    /** RPCs/s of the simulated daemons (every caller but the benchmark). */
    rpcPerSecond: number;
    /** Per (operation, caller_daemon), highest first, the benchmark left out. */
    pairs: PairRate[];
    /**
     * Per (operation, caller_daemon), the MariaDB seconds per second its calls caused
     * (database_request_query_seconds_total; perSecond is seconds/s), highest first, the
     * benchmark left out, the tier's own (caller sf-database) in. Absent: the replicas do not
     * report it (runs saved before it was recorded).
     */
    pairSeconds?: PairRate[];
    /** The benchmark's own RPCs/s (its injections). */
    benchRpcPerSecond: number;
    errorsPerSecond: number;
    /** Sum over replicas of process_cpu_seconds_total's increase, per second. */
    cpuSecondsPerSecond: number;
    replicas: { id: string; rpcPerSecond: number; cpuSecondsPerSecond: number }[];
    /** The tier's own statements/s by source (database_queries_total). */
    statementsPerSecond: Record<string, number>;
    /** Seconds/s spent in them by source (database_query_seconds_total): what pairSeconds sums to. Absent in runs saved before it was recorded. */
    statementSecondsPerSecond?: Record<string, number>;
    /**
     * The cluster's change rate as the tier counts it: change rows committed per second
     * (database_changefeed_changes_total{via="commit"}, summed over replicas), what the
     * budget's churn term and the rules read. Absent in runs saved before it was recorded.
     */
    changesPerSecond?: number;
    /**
     * MariaDB seconds per second the tier's statements took (database_query_seconds_total,
     * every source) and the same charged to callers (database_request_query_seconds_total,
     * every pair): equal when every statement's time is charged once. Absent in runs saved
     * before it was recorded (issue 39).
     */
    mariadbSeconds?: { statements: number; charged: number };
  };
  mariadb: {
    /** SHOW GLOBAL STATUS increases per second, as measured. */
    measuredPerSecond: StatusCounts;
    /** The benchmark's own statements in the window (SHOW STATUS and injections), subtracted below. */
    own: StatusCounts;
    /** measured − own, per second: what the cluster costs MariaDB. */
    perSecond: StatusCounts;
    /** mariadbd's CPU seconds per second (from /proc). */
    cpuSecondsPerSecond: number;
  };
  simulator: {
    /** From the simulator's `cpu` events (cumulative user + system); NaN with fewer than two in the window. */
    cpuSecondsPerSecond: number;
    /** The simulator process's CPU from /proc, a cross-check. */
    procCpuSecondsPerSecond: number;
    /**
     * The longest its event loop was held from ready to the window's end (its `cpu` events'
     * stallMs; NaN when none say): the warm-up too, since a period gap judged in the window
     * may have begun there.
     */
    longestStallMs: number;
    /** The same per report, in order: one per CPU_REPORT_MS from ready to the window's end. */
    stallsMs: number[];
  };
  injections: Record<NoticeDuty, { sent: number; failed: number }>;
  duties: DutyResult[];
  /** Every duty measured held its bound. */
  dutiesHeld: boolean;
  /** `noticed` events no injection accounts for (e.g. a restart re-reading states). */
  unmatchedNotices: number;
}

export interface ClusterResult {
  shape: Shape;
  replicas: number;
  modes: Mode[];
  warmupS: number;
  durationS: number;
  injectEveryMs: number;
  /** A churned instance's lifetime (runs with churn). */
  churnLifetimeS?: number;
  startedAt: string;
  seedSeconds: number;
  cluster: { nodes: number; instances: number; networks: number };
  calibration: { showStatus: StatusCounts; injections: InjectionCosts };
  results: ModeResult[];
  /** Modes asked for that the simulator refused (exit 2 before ready), with its reason. */
  skipped: { mode: Mode; reason: string }[];
}

export interface ModeObservations {
  mode: Mode;
  replicaIds: readonly string[];
  start: Scrape;
  end: Scrape;
  /** /proc CPU seconds of the simulator at the two scrapes. */
  simCpuStartS: number;
  simCpuEndS: number;
  events: readonly SimEvent[];
  injections: readonly Injection[];
  readyAt: number;
  stopAt: number;
  nodes: readonly string[];
  nodesWithInstances: readonly string[];
  periods: Record<PeriodDuty, number>;
  showCost: StatusCounts;
  costs: InjectionCosts;
}

const perSecond = (v: number, s: number): number => v / s;

/** The start's cost, from a scrape just before the simulator was spawned and one at its `ready`. */
export function summarizeStart(before: Scrape, ready: Scrape): StartResult {
  const seconds = (ready.at - before.at) / 1000;
  const pairs = pairRates(before.replicas, ready.replicas, 1)
    .filter((p) => p.callerDaemon !== BENCH_CALLER)
    .map((p) => ({ operation: p.operation, callerDaemon: p.callerDaemon, calls: p.perSecond }));
  const deltas = (metric: string, by: string[]): Map<string, number> =>
    addMaps(before.replicas.map((s, i) => counterDelta(sumBy(s, metric, by), sumBy(ready.replicas[i] ?? [], metric, by))));
  const errors = [...deltas('database_request_errors_total', ['operation', 'code'])]
    .filter(([, n]) => n > 0)
    .map(([key, calls]) => {
      const [operation = '', code = ''] = key.split('\u0000');
      return { operation, code, calls };
    })
    .sort((a, b) => b.calls - a.calls || a.operation.localeCompare(b.operation));
  const sum = (metric: string): number => replicaIncrease(before, ready, metric).reduce((a, b) => a + b, 0);
  return {
    seconds,
    calls: pairs.reduce((a, p) => a + p.calls, 0),
    pairs,
    errors,
    statements: sum('database_queries_total'),
    tierCpuS: sum('process_cpu_seconds_total'),
    mariadbCpuS: ready.mariadbCpuS - before.mariadbCpuS,
  };
}

/** CPU seconds per second from the `cpu` events that bracket the window most tightly inside it. */
export function simulatorCpu(events: readonly SimEvent[], from: number, to: number): number {
  const cpu = events.flatMap((e) => (e.event === 'cpu' && e.at >= from && e.at <= to ? [e] : [])).sort((a, b) => a.at - b.at);
  const first = cpu[0];
  const last = cpu[cpu.length - 1];
  if (!first || !last || last.at <= first.at) return Number.NaN;
  return (last.userMs + last.systemMs - first.userMs - first.systemMs) / (last.at - first.at);
}

/**
 * The longest stalls of the simulator's event loop reported by the `cpu` events made in
 * [from + one report interval, to]: each covers the interval before it, so these cover
 * (from, to] but its last few seconds (not what follows, such as a wake-up of every process).
 */
export function simulatorStalls(events: readonly SimEvent[], from: number, to: number): number[] {
  return events
    .flatMap((e) => (e.event === 'cpu' && e.stallMs !== undefined && e.at >= from + CPU_REPORT_MS && e.at <= to ? [{ at: e.at, stallMs: e.stallMs }] : []))
    .sort((a, b) => a.at - b.at)
    .map((e) => e.stallMs);
}

/** The simulator's own churn writes (its `injected` events) sent between `from` and `to`. */
export function simInjections(events: readonly SimEvent[], from: number, to: number): Injection[] {
  return events.flatMap((e) =>
    e.event === 'injected' && e.at >= from && e.at <= to
      ? [{ duty: e.duty, id: e.id, node: e.node, daemon: e.daemon, at: e.at, ...(e.error !== undefined ? { error: e.error } : {}) }]
      : [],
  );
}

export function summarizeMode(o: ModeObservations): ModeResult {
  const seconds = (o.end.at - o.start.at) / 1000;
  const stalls = simulatorStalls(o.events, o.readyAt, o.end.at);
  const all = pairRates(o.start.replicas, o.end.replicas, seconds);
  const pairs = all.filter((p) => p.callerDaemon !== BENCH_CALLER);
  const bench = all.filter((p) => p.callerDaemon === BENCH_CALLER);
  const sum = (rates: readonly PairRate[]): number => rates.reduce((s, p) => s + p.perSecond, 0);

  const requests = replicaIncrease(o.start, o.end, 'database_requests_total');
  const cpu = replicaIncrease(o.start, o.end, 'process_cpu_seconds_total');
  const errors = replicaIncrease(o.start, o.end, 'database_request_errors_total');
  const bySource = addMaps(
    o.start.replicas.map((s, i) => counterDelta(sumBy(s, 'database_queries_total', ['source']), sumBy(o.end.replicas[i] ?? [], 'database_queries_total', ['source']))),
  );
  const commits = addMaps(
    o.start.replicas.map((s, i) => counterDelta(sumBy(s, CHANGE_COUNTER, [CHANGE_LABEL]), sumBy(o.end.replicas[i] ?? [], CHANGE_COUNTER, [CHANGE_LABEL]))),
  );
  const secondsOf = (metric: string): number =>
    addMaps(o.start.replicas.map((s, i) => counterDelta(sumBy(s, metric, []), sumBy(o.end.replicas[i] ?? [], metric, [])))).get('') ?? 0;
  const mariadbSeconds = { statements: perSecond(secondsOf('database_query_seconds_total'), seconds), charged: perSecond(secondsOf('database_request_query_seconds_total'), seconds) };
  const statementsPerSecond: Record<string, number> = {};
  for (const [source, n] of [...bySource].sort()) statementsPerSecond[source] = perSecond(n, seconds);
  const secondsBySource = addMaps(
    o.start.replicas.map((s, i) => counterDelta(sumBy(s, 'database_query_seconds_total', ['source']), sumBy(o.end.replicas[i] ?? [], 'database_query_seconds_total', ['source']))),
  );
  const statementSecondsPerSecond: Record<string, number> = {};
  for (const [source, n] of [...secondsBySource].sort()) statementSecondsPerSecond[source] = perSecond(n, seconds);
  const reportsSeconds = o.end.replicas.some((r) => r.some((x) => x.name === QUERY_SECONDS_COUNTER));
  const pairSeconds = reportsSeconds ? pairRates(o.start.replicas, o.end.replicas, seconds, QUERY_SECONDS_COUNTER).filter((p) => p.callerDaemon !== BENCH_CALLER) : undefined;

  // The window's injections: their RPCs ran between the two scrapes.
  const inWindow = o.injections.filter((i) => i.at >= o.start.at && i.at <= o.end.at);
  const own = ownStatements(o.showCost, 1, o.costs, inWindow.filter((i) => i.error === undefined));
  const measured = mapCounts((c) => perSecond(o.end.status[c] - o.start.status[c], seconds));

  const noticed: NoticedEvent[] = o.events.flatMap((e) => (e.event === 'noticed' ? [e] : []));
  const period: PeriodEvent[] = o.events.flatMap((e) => (e.event === 'period' ? [e] : []));
  // The churn's due notices count when their write was sent in the window, like the injections'.
  const due = [...o.injections, ...simInjections(o.events, o.start.at, o.end.at)];
  const matched = matchNotices(due, noticed);
  const duties = [
    ...evaluateNotices(matched),
    ...evaluatePeriods(period, {
      nodes: o.nodes,
      nodesWithInstances: o.nodesWithInstances,
      periods: o.periods,
      readyAt: o.readyAt,
      windowStart: o.start.at,
      stopAt: o.stopAt,
    }),
  ];
  const injections = {} as Record<NoticeDuty, { sent: number; failed: number }>;
  for (const d of NOTICE_DUTIES) {
    const mine = due.filter((i) => i.duty === d);
    injections[d] = { sent: mine.length, failed: mine.filter((i) => i.error !== undefined).length };
  }
  const ready = o.events.find((e) => e.event === 'ready');
  return {
    mode: o.mode,
    windowS: seconds,
    daemons: ready && ready.event === 'ready' ? ready.daemons : 0,
    ...cacheOf(o.events),
    tier: {
      rpcPerSecond: sum(pairs),
      pairs,
      benchRpcPerSecond: sum(bench),
      errorsPerSecond: perSecond(errors.reduce((s, v) => s + v, 0), seconds),
      cpuSecondsPerSecond: perSecond(cpu.reduce((s, v) => s + v, 0), seconds),
      replicas: o.replicaIds.map((id, i) => ({ id, rpcPerSecond: perSecond(requests[i] ?? 0, seconds), cpuSecondsPerSecond: perSecond(cpu[i] ?? 0, seconds) })),
      statementsPerSecond,
      statementSecondsPerSecond,
      ...(pairSeconds ? { pairSeconds } : {}),
      changesPerSecond: perSecond(commits.get(CHANGE_COMMIT) ?? 0, seconds),
      mariadbSeconds,
    },
    mariadb: {
      measuredPerSecond: measured,
      own,
      perSecond: mapCounts((c) => Math.max(0, perSecond(o.end.status[c] - o.start.status[c] - own[c], seconds))),
      cpuSecondsPerSecond: perSecond(o.end.mariadbCpuS - o.start.mariadbCpuS, seconds),
    },
    simulator: {
      cpuSecondsPerSecond: simulatorCpu(o.events, o.start.at, o.end.at),
      procCpuSecondsPerSecond: perSecond(o.simCpuEndS - o.simCpuStartS, seconds),
      longestStallMs: stalls.length > 0 ? Math.max(...stalls) : Number.NaN,
      stallsMs: stalls,
    },
    injections,
    duties,
    dutiesHeld: duties.every((d) => d.held !== false),
    unmatchedNotices: noticed.length - matched.filter((m) => m.latencyMs !== undefined).length,
  };
}

/** The shards' `cache` events summed; nothing when no process had a cache. */
function cacheOf(events: readonly SimEvent[]): { cache?: CacheFigures } {
  const each = events.flatMap((e) => (e.event === 'cache' ? [e] : []));
  if (each.length === 0 || each.every((e) => e.firstReads === 0)) return {};
  const add = (maps: Record<string, number>[]): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const m of maps) for (const [k, v] of Object.entries(m)) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  const total = (f: (e: CacheFigures) => number): number => each.reduce((s, e) => s + f(e), 0);
  return {
    cache: {
      firstReads: total((e) => e.firstReads),
      laterHits: total((e) => e.laterHits),
      laterMisses: total((e) => e.laterMisses),
      evictions: add(each.map((e) => e.evictions)),
      clears: add(each.map((e) => e.clears)),
    },
  };
}
