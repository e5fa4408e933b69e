// A daemon's reports of its own state: STOPPING on a signal, STOPPED when its loop has
// ended, STOPPED while an operator holds it. Each is hedged (client/hedge.ts: a report not
// answered in 250 ms goes out a second time, and p2c sends it to a replica other than the
// one holding the first, a frozen one, when one is live); a report with a budget is tried
// again with backoff while the tier cannot answer, until the budget is spent — the final
// STOPPED has SFDB_DAEMON_STOP_REPORT_MS (10 s), well inside a supervisor's stop timeout
// (TimeoutStopSec and terminationGracePeriodSeconds: 30 s). Writing the same state twice
// is harmless: the row ends the same.
import { DatabaseUnavailable, hedged, jitteredDelay } from '@sfdb/client';
import type { Clock, DaemonState, DatabaseClient, WrittenDaemonState } from '@sfdb/client';
import { stateRetries } from './metrics.js';

/** Each try's deadline: a write answers in milliseconds; a replica that does not answer is left for the hedge. */
const REPORT_DEADLINE_MS = 2000;
const RETRY_BASE_MS = 100;
const RETRY_CAP_MS = 1000;

export interface ReportContext {
  readonly db: Pick<DatabaseClient, 'setNodeDaemonState'>;
  readonly nodeUuid: string;
  readonly name: string;
  readonly clock: Clock;
}

/**
 * Records the daemon's `state` with `message` (its operator hold left as it is). Answers the
 * row, or undefined when it could not be written: refused, or the tier unavailable for the
 * whole budget (0: one hedged try).
 */
export async function reportState(ctx: ReportContext, state: DaemonState, message: string, o: { budgetMs: number }): Promise<WrittenDaemonState | undefined> {
  const end = ctx.clock.now() + o.budgetMs;
  for (let attempt = 0; ; attempt++) {
    const left = end - ctx.clock.now();
    try {
      return await hedged((opts) => ctx.db.setNodeDaemonState(ctx.nodeUuid, ctx.name, state, message, opts), {
        clock: ctx.clock,
        deadlineMs: o.budgetMs === 0 ? REPORT_DEADLINE_MS : Math.max(250, Math.min(REPORT_DEADLINE_MS, left)),
        onHedge: () => stateRetries.inc({ daemon: ctx.name, call: 'report', kind: 'hedge' }),
      });
    } catch (err) {
      // A refusal (the node deleted, say) is not retried: only an outage is.
      if (!(err instanceof DatabaseUnavailable)) return undefined;
      const delay = jitteredDelay(attempt, RETRY_BASE_MS, RETRY_CAP_MS);
      if (ctx.clock.now() + delay >= end) return undefined;
      stateRetries.inc({ daemon: ctx.name, call: 'report', kind: 'retry' });
      await ctx.clock.sleep(delay);
    }
  }
}
