// A frozen replica (stopped, paused, cut off without a FIN) keeps this client's connection
// open, and with it the long-poll it holds: nothing it misses arrives, and the client's
// own keepalive gives up only after KEEPALIVE_MS + KEEPALIVE_TIMEOUT_MS (15 s). The live
// replicas notice within about a second and a half (server/changefeed/peer-probe.ts):
// this client holds one WatchReplicas on a replica other than its long-poll's (p2c places
// it as a long-poll, so on the replica holding fewer of this client's: not the poll's),
// and when that replica names replicas that stopped answering, the balancer picks around
// them (client/p2c.ts) and the change waiter moves a long-poll it holds there.
//
// Fail open: an answer that names nobody, or a watch that fails, avoids nothing, so a
// confused watch can only cost what the keepalive alone would.
import type { Clock } from '@sfdb/proto/runtime/clock';
import { systemClock } from '@sfdb/proto/runtime/clock';
import type { ReplicaAvoidance } from './avoidance.js';
import { jitteredDelay } from './retry.js';
import type { CallOptions } from './transport.js';

export interface WatchCalls {
  watchReplicas(known: string, timeoutMs: number, opts?: CallOptions): Promise<{ version: string; unresponsive: string[] }>;
}

/** Held this long by the replica; the call's deadline is 10 s more. */
export const WATCH_TIMEOUT_MS = 300_000;
const WATCH_DEADLINE_SLACK_MS = 10_000;
const FIRST_WATCH_MIN_MS = 1_000;
const FIRST_WATCH_JITTER_MS = 2_000;
const RETRY_BASE_MS = 1_000;
const RETRY_CAP_MS = 30_000;

export class ReplicaWatch {
  private readonly stop = new AbortController();
  private loop: Promise<void> | undefined;
  private answers = 0;
  private failures = 0;

  constructor(
    private readonly calls: WatchCalls,
    private readonly avoidance: ReplicaAvoidance,
    private readonly clock: Clock = systemClock,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  snapshot(): { answers: number; failures: number; avoided: string[] } {
    return { answers: this.answers, failures: this.failures, avoided: [...this.avoidance.addresses] };
  }

  close(): Promise<void> {
    this.stop.abort();
    return this.loop ?? Promise.resolve();
  }

  private async run(): Promise<void> {
    const signal = this.stop.signal;
    let known = '';
    let failed = 0;
    // A new channel connects to its replicas one by one: a watch picked while only the
    // first is READY would put every new process's watch there, and its poll (placed
    // around the watch) on another. Meanwhile the keepalive alone covers the poll.
    await this.clock.sleep(FIRST_WATCH_MIN_MS + Math.random() * FIRST_WATCH_JITTER_MS, signal);
    while (!signal.aborted) {
      try {
        const r = await this.calls.watchReplicas(known, WATCH_TIMEOUT_MS, { signal, deadlineMs: WATCH_TIMEOUT_MS + WATCH_DEADLINE_SLACK_MS });
        known = r.version;
        failed = 0;
        this.answers += 1;
        this.avoidance.set(r.unresponsive);
      } catch {
        if (signal.aborted) break;
        // A watch that cannot be held says nothing of the replicas: avoid nobody, try again.
        this.failures += 1;
        this.avoidance.set([]);
        known = '';
        await this.clock.sleep(jitteredDelay(failed++, RETRY_BASE_MS, RETRY_CAP_MS), signal);
      }
    }
  }
}
