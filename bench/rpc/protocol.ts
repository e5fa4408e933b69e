// Messages between the orchestrator and its child processes (Node IPC, JSON).

export const TARGETS = ['direct', 'bare', 'tier'] as const;
/** A tier like `tier` but tracing, sampling this percentage of its calls (--traced). */
export type TracedTarget = `traced ${number}%`;
/**
 * direct: mysql2 from the client process; bare: the bare grpc-js server; tier: sf-database;
 * traced: sf-database tracing; baseline: sf-database at another revision (--baseline).
 */
export type Target = (typeof TARGETS)[number] | TracedTarget | 'baseline';

export function tracedTarget(percent: number): TracedTarget {
  return `traced ${percent}%`;
}

/** The sampled percentage of a traced target; undefined for the others. */
export function tracedPercent(target: Target): number | undefined {
  return target.startsWith('traced ') ? Number(target.slice('traced '.length, -1)) : undefined;
}

/** What a load client calls and how hard. */
export interface LoadJob {
  target: Target;
  /** mysql://… for direct; 127.0.0.1:PORT for bare and tier. */
  address: string;
  poolSize: number;
  inflight: number;
  uuids: string[];
}

/** Orchestrator → load client. */
export type ClientCommand =
  /** Connect; answer `ready`. */
  | { kind: 'start'; job: LoadJob }
  /** Run the closed loop `warmupMs` unmeasured then `durationMs` measured; answer
   * `measuring` when the measured window opens and `round` when it closes. */
  | { kind: 'round'; warmupMs: number; durationMs: number }
  /** Answer `summary` (every round pooled), close, exit. */
  | { kind: 'stop' };

/** One measured window as the load client saw it. Latencies in milliseconds. */
export interface RoundResult {
  /** Calls completed inside the window (their latencies are the samples). */
  calls: number;
  errors: number;
  firstError: string | undefined;
  seconds: number;
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU (user + system) of the load client process over the window, µs. */
  clientCpuUs: number;
}

/** Every round of one load client pooled. */
export interface ClientSummary {
  calls: number;
  errors: number;
  firstError: string | undefined;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  /** Every call completed, warm-ups and failures included. */
  allCalls: number;
}

/** Load client → orchestrator. */
export type ClientMessage =
  | { kind: 'ready' }
  | { kind: 'measuring' }
  | { kind: 'round'; result: RoundResult }
  | { kind: 'summary'; summary: ClientSummary }
  | { kind: 'failed'; error: string };

/** What trace-layer.ts measured: CPU µs per call its tracing adds, without an SDK (`percent` undefined) or sampling `percent`. */
export interface LayerCost {
  percent: number | undefined;
  tierUs: number;
  /** The tier's, for a call whose traceparent says its caller's trace is not sampled (flags 00). */
  tierUnsampledCallerUs: number;
  clientUs: number;
}

/** Sent by the bare server once it listens. */
export interface BareReady {
  port: number;
}
