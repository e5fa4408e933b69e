// Slow statements that name their sender: a statement that took longer than the threshold
// (SFDB_SLOW_STATEMENT_MS) is counted (database_slow_statements_total{operation,
// caller_daemon}) and logged once, with who sent it (operation, caller daemon and node,
// trace id) and what it was (the query function's name, never its parameters or values).
import type { Logger } from 'pino';
import { SharedOwner } from './owner.js';
import type { StatementOwner } from './owner.js';

export interface SlowStatement {
  owner: StatementOwner;
  /** The query source (database_queries_total{source}). */
  source: string;
  /** The query function that sends it (coalescer.ts statementOf). */
  name: string;
  seconds: number;
  /** Rows read, or rows a write affected; undefined when it failed. */
  rows: number | undefined;
  /** Whether it failed (its error is the caller's to report). */
  failed: boolean;
}

export class SlowStatements {
  /** The threshold in seconds; Infinity: none is slow. */
  readonly thresholdSeconds: number;

  constructor(
    thresholdMs: number,
    private readonly log: Logger | undefined,
  ) {
    this.thresholdSeconds = thresholdMs > 0 ? thresholdMs / 1000 : Number.POSITIVE_INFINITY;
  }

  report(s: SlowStatement): void {
    const { owner } = s;
    owner.countSlow();
    // A call's own statement: told in the call's log, whose lines carry its trace_id or call_id.
    const log = owner.callLog?.() ?? this.log;
    log?.warn(
      {
        operation: owner.operation,
        caller_daemon: owner.callerDaemon,
        ...(owner.callerNode === '' ? {} : { caller_node: owner.callerNode }),
        ...(owner instanceof SharedOwner ? { shared_by: owner.size, callers: owner.callers() } : {}),
        statement: s.name,
        source: s.source,
        duration_ms: Math.round(s.seconds * 1000 * 10) / 10,
        ...(s.rows === undefined ? {} : { rows: s.rows }),
        ...(s.failed ? { failed: true } : {}),
        // The call's log names its trace itself.
        ...(owner.traceId === undefined || owner.callLog !== undefined ? {} : { trace_id: owner.traceId }),
        threshold_ms: this.thresholdSeconds * 1000,
      },
      'slow statement',
    );
  }
}

/** No statement is slow (tools that open a pool for a moment: migrate, backup). */
export const NO_SLOW_STATEMENTS = new SlowStatements(0, undefined);
