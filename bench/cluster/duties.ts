// Duty latencies and bounds (docs/workload.md): a notice duty's latency is the time from its
// injection to the simulator's `noticed` event; a period duty's are the gaps between its
// consecutive `period` events. Pure: the unit tests feed it events.
import type { DaemonType, NoticeDuty, PeriodDuty } from './protocol.js';
import { EVICT_BOUND_MS, NOTICE_BOUND_MS } from './protocol.js';
import { percentile } from '../../harness/stats.js';

export { percentile };

/** A notice bound holds with one idle tick of slack: the daemon checks its flag each tick. */
export const NOTICE_TOLERANCE_MS = 250;
/** An injection not noticed within this long is a miss. */
export const MISS_AFTER_MS = 10_000;
/** A period bound holds when every gap is at most period + this (timer and scheduling slack). */
export const PERIOD_TOLERANCE_MS = 1000;

export const NOTICE_DUTIES: readonly NoticeDuty[] = ['operator-stop', 'work-item', 'transfer', 'instance-state', 'churn-state', 'static-evict'];

/**
 * The bound of a notice duty and how it is judged: every notice within NOTICE_BOUND_MS
 * plus one tick (max), or, for a static update's eviction, the p99 within EVICT_BOUND_MS
 * (a holder that never dropped the object counts as an infinite latency).
 */
export function noticeBound(duty: NoticeDuty): { boundMs: number; judged: 'max' | 'p99' } {
  return duty === 'static-evict' ? { boundMs: EVICT_BOUND_MS, judged: 'p99' } : { boundMs: NOTICE_BOUND_MS + NOTICE_TOLERANCE_MS, judged: 'max' };
}
export const PERIOD_DUTIES: readonly PeriodDuty[] = ['node-heartbeat', 'resources-node', 'resources-instance', 'cleaner', 'maintenance'];

/** One injected event, as the orchestrator recorded it. */
export interface Injection {
  duty: NoticeDuty;
  /** The id the simulator will report in its `noticed` event. */
  id: string;
  node: string;
  daemon: DaemonType;
  /** Date.now() just before the RPC was sent. */
  at: number;
  /** The RPC's error, when it failed (the injection then cannot be noticed). */
  error?: string;
  /** Pinned runs: whether the write went through the replica its waiter is on. */
  sameReplica?: boolean;
}

export interface NoticedEvent {
  duty: NoticeDuty;
  node: string;
  daemon: DaemonType;
  id: string;
  at: number;
}

export interface PeriodEvent {
  duty: PeriodDuty;
  node: string;
  at: number;
}

export interface DutyResult {
  duty: NoticeDuty | PeriodDuty;
  kind: 'notice' | 'period';
  /** The bound the latencies are held to, tolerance included (ms). */
  boundMs: number;
  /** Latencies (notice) or closed gaps between two events (period) measured; the percentiles are over these. */
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Notice: injections never noticed within MISS_AFTER_MS (or whose RPC failed). Period: gaps over the bound, open ends included. */
  misses: number;
  /** undefined when nothing was measured (e.g. no instances to change). */
  held: boolean | undefined;
  /** Where the worst sample was (node, daemon), for a reader chasing a failure. */
  worst?: string;
  /** Notice duties of a pinned run: the latencies of writes on the waiter's replica, and on another. */
  byReplica?: { same: ReplicaSplit; other: ReplicaSplit };
}

export interface ReplicaSplit {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface MatchedInjection extends Injection {
  /** ms from injection to notice; undefined for a miss. */
  latencyMs: number | undefined;
}

/**
 * Pairs each injection with the first unused `noticed` event of the same duty and id at
 * or after its time (ids repeat: the same daemon is stopped again later). Injections are
 * matched in time order.
 */
export function matchNotices(injections: readonly Injection[], noticed: readonly NoticedEvent[], missAfterMs = MISS_AFTER_MS): MatchedInjection[] {
  const used = new Set<number>();
  const order = noticed.map((e, i) => ({ e, i })).sort((x, y) => x.e.at - y.e.at);
  return [...injections]
    .sort((a, b) => a.at - b.at)
    .map((inj) => {
      if (inj.error !== undefined) return { ...inj, latencyMs: undefined };
      const hit = order.find(({ e, i }) => !used.has(i) && e.duty === inj.duty && e.id === inj.id && e.at >= inj.at && e.at - inj.at <= missAfterMs);
      if (!hit) return { ...inj, latencyMs: undefined };
      used.add(hit.i);
      return { ...inj, latencyMs: hit.e.at - inj.at };
    });
}

function summary(values: readonly number[]): { p50Ms: number; p99Ms: number; maxMs: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), maxMs: sorted.length > 0 ? (sorted[sorted.length - 1] as number) : Number.NaN };
}

/** The p99 of `latencies` with `misses` more samples of infinite latency. */
export function p99WithMisses(latencies: readonly number[], misses: number): number {
  return percentile([...latencies, ...new Array<number>(misses).fill(Infinity)].sort((a, b) => a - b), 0.99);
}

/** Every notice duty's latencies and whether its bound (noticeBound) held. */
export function evaluateNotices(matched: readonly MatchedInjection[]): DutyResult[] {
  return NOTICE_DUTIES.map((duty) => {
    const { boundMs, judged } = noticeBound(duty);
    const mine = matched.filter((m) => m.duty === duty);
    const latencies = mine.flatMap((m) => (m.latencyMs === undefined ? [] : [m.latencyMs]));
    const misses = mine.length - latencies.length;
    const s = summary(latencies);
    let worst: MatchedInjection | undefined = mine.find((m) => m.latencyMs === undefined);
    if (!worst) for (const m of mine) if (worst === undefined || (m.latencyMs ?? 0) > (worst.latencyMs ?? 0)) worst = m;
    const split = (same: boolean): ReplicaSplit => {
      const l = mine.filter((m) => m.sameReplica === same).flatMap((m) => (m.latencyMs === undefined ? [] : [m.latencyMs]));
      return { samples: l.length, ...summary(l) };
    };
    const pinned = mine.some((m) => m.sameReplica !== undefined);
    return {
      duty,
      kind: 'notice' as const,
      boundMs,
      samples: latencies.length,
      ...s,
      ...(pinned ? { byReplica: { same: split(true), other: split(false) } } : {}),
      misses,
      held: mine.length === 0 ? undefined : judged === 'max' ? misses === 0 && s.maxMs <= boundMs : p99WithMisses(latencies, misses) <= boundMs,
      ...(worst ? { worst: `${worst.node}/${worst.daemon}${worst.latencyMs === undefined ? ` missed ${worst.id}${worst.error ? ` (${worst.error})` : ''}` : ''}` } : {}),
    };
  });
}

export interface PeriodScope {
  /** Node uuids each per-node duty is expected on. */
  nodes: readonly string[];
  /** Nodes with at least one standing instance (resources-instance runs there). */
  nodesWithInstances: readonly string[];
  periods: Record<PeriodDuty, number>;
  /** When the simulator said ready; the gap to a duty's first event counts from here. */
  readyAt: number;
  /** Gaps that end before this are warm-up and not judged. */
  windowStart: number;
  /** When the simulator was told to stop; the gap from a duty's last event counts to here. */
  stopAt: number;
}

export interface Gaps {
  /** Between consecutive events, for those ending at or after the window's start. */
  closed: number[];
  /**
   * The open ends, each a lower bound of a real gap: from ready to the first event (when
   * that is in the window) and from the last event to the stop. A stalled duty shows here.
   */
  open: number[];
}

/** The gaps of one series of `period` events that matter for the window [windowStart, stopAt]. */
export function periodGaps(times: readonly number[], readyAt: number, windowStart: number, stopAt: number): Gaps {
  const events = [...times].filter((t) => t >= readyAt && t <= stopAt).sort((a, b) => a - b);
  const closed: number[] = [];
  for (let i = 1; i < events.length; i++) {
    const end = events[i] as number;
    if (end >= windowStart) closed.push(end - (events[i - 1] as number));
  }
  const first = events[0];
  const last = events[events.length - 1];
  const open = first === undefined ? [stopAt - readyAt] : [...(first >= windowStart ? [first - readyAt] : []), stopAt - (last as number)];
  return { closed, open };
}

/**
 * Every period duty: its gaps per node (maintenance: cluster-wide, whichever node is
 * elected) and whether each gap stayed within period + PERIOD_TOLERANCE_MS.
 */
export function evaluatePeriods(events: readonly PeriodEvent[], scope: PeriodScope): DutyResult[] {
  return PERIOD_DUTIES.map((duty) => {
    const boundMs = scope.periods[duty] + PERIOD_TOLERANCE_MS;
    const mine = events.filter((e) => e.duty === duty);
    const series = new Map<string, number[]>();
    if (duty === 'maintenance') series.set('cluster', mine.map((e) => e.at));
    else {
      const expected = duty === 'resources-instance' ? scope.nodesWithInstances : scope.nodes;
      for (const node of expected) series.set(node, []);
      for (const e of mine) {
        const times = series.get(e.node);
        if (times) times.push(e.at);
        else series.set(e.node, [e.at]);
      }
    }
    const gaps: number[] = [];
    let worst: { where: string; gap: number; open: boolean } | undefined;
    let misses = 0;
    for (const [where, times] of series) {
      const g = periodGaps(times, scope.readyAt, scope.windowStart, scope.stopAt);
      gaps.push(...g.closed);
      for (const [gap, open] of [...g.closed.map((x) => [x, false] as const), ...g.open.map((x) => [x, true] as const)]) {
        if (gap > boundMs) misses += 1;
        if (!worst || gap > worst.gap) worst = { where, gap, open };
      }
    }
    return {
      duty,
      kind: 'period' as const,
      boundMs,
      samples: gaps.length,
      ...summary(gaps),
      misses,
      held: series.size === 0 ? undefined : misses === 0,
      ...(worst ? { worst: `${worst.where}: ${Math.round(worst.gap)} ms${worst.open ? ' (open end)' : ''}` } : {}),
    };
  });
}
