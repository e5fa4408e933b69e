// What every RPC handler receives besides its request.
import type { Logger } from 'pino';
import type { MethodName, RequestOut, ResponseIn } from '../../proto/types.js';
import type { Config } from '../config.js';
import type { Sql } from '../db/pool.js';
import type { QuerySource } from '../metrics.js';

export interface Caller {
  /** x-sfdb-caller-daemon as sent (may be off the metrics allow-list), or ''. */
  readonly daemon: string;
  /** x-sfdb-caller-node as sent, or ''. */
  readonly node: string;
}

export interface CallContext {
  /** Statements counted as source `rpc`. */
  readonly sql: Sql;
  /** Statements counted under another source (maintenance jobs run through RPCs). */
  readonly sqlAs: (source: QuerySource) => Sql;
  readonly config: Config;
  readonly log: Logger;
  readonly caller: Caller;
}

/** A handler: domain logic only. Validation errors, status mapping, metrics live elsewhere. */
export type Handler<M extends MethodName> = (request: RequestOut<M>, ctx: CallContext) => Promise<ResponseIn<M>>;

export type Handlers<M extends MethodName> = { [K in M]: Handler<K> };
