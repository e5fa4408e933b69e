// What every RPC handler receives besides its request.
import type { Context } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { MethodName, RequestOut, ResponseIn } from '@sfdb/proto/types';
import type { Caller } from '../caller.js';
import type { ChangeFeed } from '../changefeed/feed.js';
import type { Write } from '../changefeed/publish.js';
import type { Config } from '../config.js';
import type { Sql } from '../db/sql.js';
import type { Metrics, QuerySource } from '../metrics.js';
import type { CallGroups } from './groups.js';
import type { LeaseEnds } from './leases/expiry.js';


export interface CallContext {
  /** Statements counted as source `rpc`. */
  readonly sql: Sql;
  /** Statements counted under another source (maintenance jobs run through RPCs). */
  readonly sqlAs: (source: QuerySource) => Sql;
  /** A transaction whose published changes reach the change feed (see Write). */
  readonly write: Write;
  /** Group commit of the frequent per-node writes (server/rpc/groups.ts collects each family's kinds). */
  readonly groups: CallGroups;
  /** This replica's change feed (waiters, window, pokes). */
  readonly feed: ChangeFeed;
  /** Lease ends announced (server/rpc/leases/expiry.ts): a standby's AcquireLease tells it what to watch. */
  readonly leaseEnds: LeaseEnds;
  readonly config: Config;
  /** The replica's metrics, for what a handler counts besides the call itself. */
  readonly metrics: Metrics;
  /** The replica's log; every line carries the call's trace_id, or a call_id when it is not traced. */
  readonly log: Logger;
  /**
   * The call's span as an OpenTelemetry Context (ROOT_CONTEXT when the call is not
   * traced): the parent of the spans its handler makes, `tracer.startSpan(name, {}, ctx.trace)`.
   * Passed, never ambient: the tier registers no context manager.
   */
  readonly trace: Context;
  readonly caller: Caller;
  /** Aborted when the call is cancelled by the client or its deadline passes. */
  readonly signal: AbortSignal;
}

/** A handler: domain logic only. Validation errors, status mapping, metrics live elsewhere. */
export type Handler<M extends MethodName> = (request: RequestOut<M>, ctx: CallContext) => Promise<ResponseIn<M>>;

export type Handlers<M extends MethodName> = { [K in M]: Handler<K> };
