// Who a statement is for. Every statement the tier sends is charged to one owner: the
// call that ran it (its operation and calling daemon), the tier itself (its change-feed
// tail, registry, timers, admin reads, migrations: operation = the query source, caller
// TIER_CALLER), or a statement shared by several calls (a group-commit batch, a coalesced
// read), whose time is split equally among the calls it answered. The owner names the
// statement to MariaDB too, in a comment of the sqlcommenter format, so MariaDB's own
// processlist, general log and slow query log show who sent it.
//
// The comment names the operation and the caller daemon's metric label: both bounded sets,
// so a prepared statement is made once per (statement, operation, caller) and reused —
// the comment defeats no preparation (docs/BENCHMARKS.md, issue 39). A traced call's
// statements name its traceparent too: unique texts, prepared and then closed
// (bound-sql.ts), never left to fill MariaDB's prepared-statement slots, and each of them
// is a span under the call's (statement-span.ts).

import type { Context } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { CostSink } from '../metrics.js';

/**
 * The caller_daemon label of the tier's own statements: the name replicas give themselves
 * when they call a peer (pokes, probes), so a peer's call counts as the tier's own too.
 */
export const TIER_CALLER = 'sf-database';

/** The comment's caller of a statement shared by several calls (they are charged, not named). */
const SHARED_CALLER = 'shared';

export interface StatementOwner {
  /** The operation label: an RPC's name, or the query source of the tier's own statements. */
  readonly operation: string;
  /** The caller_daemon label (caller-names.ts), or TIER_CALLER. */
  readonly callerDaemon: string;
  /** The caller's node as it named itself ('' for none, and for the tier's own): logs only, never a label. */
  readonly callerNode: string;
  /** The statement comment, with its leading space (sqlcommenter). */
  readonly comment: string;
  /** The traced call's trace id, for log lines; undefined when untraced. */
  readonly traceId: string | undefined;
  /** Whether the comment is this call's alone (a traceparent): its statements are not kept prepared. */
  readonly uniqueComment: boolean;
  /** The call's own log, when the owner is a call's: a slow statement's line then carries its trace_id or call_id. */
  readonly callLog?: () => Logger;
  /**
   * The span its statements are made under (statement-span.ts): a sampled call's, a
   * group-commit batch's; undefined when not traced — then a statement makes no span.
   */
  readonly traceContext: Context | undefined;
  /** Adds a statement's seconds (and its wait for a connection) to the owner's counters. */
  charge(seconds: number, waitSeconds: number): void;
  countSlow(): void;
}

/**
 * The sqlcommenter comment of `pairs` (https://google.github.io/sqlcommenter/spec/): keys
 * sorted, each value URL-encoded and its quotes escaped. encodeURIComponent turns `/` into
 * %2F, so no value can end the comment (`*` then `/`).
 */
export function sqlComment(pairs: Readonly<Record<string, string>>): string {
  const parts = Object.keys(pairs)
    .sort()
    .map((k) => `${encodeURIComponent(k)}='${encodeURIComponent(pairs[k] as string).replace(/'/g, "\\'")}'`);
  return parts.length === 0 ? '' : ` /*${parts.join(',')}*/`;
}

/** The owner of a (operation, caller) pair's statements with no call behind them: the tier's own. */
export class PairOwner implements StatementOwner {
  readonly comment: string;
  readonly callerNode = '';
  readonly traceId = undefined;
  readonly uniqueComment = false;
  readonly traceContext = undefined;

  constructor(
    readonly operation: string,
    readonly callerDaemon: string,
    private readonly sink: CostSink,
  ) {
    this.comment = sqlComment({ caller: callerDaemon, operation });
  }

  charge(seconds: number, waitSeconds: number): void {
    this.sink.charge(seconds, waitSeconds);
  }

  countSlow(): void {
    this.sink.countSlow();
  }
}

/** A sampled call's trace, as its owner carries it. */
export interface OwnerTrace {
  readonly traceId: string;
  /** The call span's W3C traceparent: named in its statements' comment. */
  readonly traceparent: string;
  /** The call's span as a Context: its statements' spans are its children. */
  readonly context: Context;
}

/** A call's owner: its pair's counters and comment, with its node and trace. */
export class CallOwner implements StatementOwner {
  readonly comment: string;
  readonly uniqueComment: boolean;
  readonly traceContext: Context | undefined;

  constructor(
    private readonly pair: PairOwner,
    readonly callerNode: string,
    /** The call's trace when it is traced and sampled (unary.ts). */
    trace?: OwnerTrace,
    /** The call's log (its lines carry its trace_id or call_id): where its slow statements are told. */
    readonly callLog?: () => Logger,
  ) {
    this.traceId = trace?.traceId;
    this.traceContext = trace?.context;
    this.uniqueComment = trace !== undefined;
    this.comment = trace === undefined ? pair.comment : sqlComment({ caller: pair.callerDaemon, operation: pair.operation, traceparent: trace.traceparent });
  }

  readonly traceId: string | undefined;

  get operation(): string {
    return this.pair.operation;
  }

  get callerDaemon(): string {
    return this.pair.callerDaemon;
  }

  charge(seconds: number, waitSeconds: number): void {
    this.pair.charge(seconds, waitSeconds);
  }

  countSlow(): void {
    this.pair.countSlow();
  }
}

/**
 * A statement shared by several calls: each is charged an equal part of its seconds (a
 * batch of n calls: 1/n each), so the callers' seconds add up to the statements'. Its
 * comment names the first call's operation and the caller `shared`: one prepared statement
 * per batch kind, whoever called. Its callerDaemon (the slow-statement log's) is the calls'
 * daemon when they all have the same, else `shared`. Its statements are spans under
 * `traceContext`: a group-commit batch's span (group-commit.ts), or for a coalesced read the
 * first reader's own (the one whose read launched it; the others' spans are not linked —
 * kept simple, a shared read being one point read). Its comment names no traceparent, so
 * its text stays prepared whoever is traced.
 */
export class SharedOwner implements StatementOwner {
  readonly callerNode = '';
  readonly traceId = undefined;
  readonly uniqueComment = false;
  readonly comment: string;
  private readonly owners: StatementOwner[];

  constructor(
    first: StatementOwner,
    readonly traceContext: Context | undefined = first.traceContext,
  ) {
    this.owners = [first];
    this.comment = sqlComment({ caller: SHARED_CALLER, operation: first.operation });
  }

  get operation(): string {
    return (this.owners[0] as StatementOwner).operation;
  }

  get callerDaemon(): string {
    const first = (this.owners[0] as StatementOwner).callerDaemon;
    return this.owners.every((o) => o.callerDaemon === first) ? first : SHARED_CALLER;
  }

  /** The calls' distinct caller daemons, at most `max`, in order of arrival. */
  callers(max = 8): string[] {
    const out = new Set<string>();
    for (const o of this.owners) {
      if (out.size >= max) break;
      out.add(o.callerDaemon);
    }
    return [...out];
  }

  /** One more call answered by the shared statement (before it runs). */
  add(owner: StatementOwner): void {
    this.owners.push(owner);
  }

  get size(): number {
    return this.owners.length;
  }

  charge(seconds: number, waitSeconds: number): void {
    const n = this.owners.length;
    for (const o of this.owners) o.charge(seconds / n, waitSeconds / n);
  }

  countSlow(): void {
    // Once, for the first call: one statement was slow, not n.
    (this.owners[0] as StatementOwner).countSlow();
  }
}
