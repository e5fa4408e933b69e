// The one unary adapter: awaits every async handler (grpc-js ignores a returned promise)
// and answers typed errors through toServiceError (error-status.ts).
import * as grpc from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { PermissionDeniedError, ResourceExhaustedError } from '../errors.js';
import { CALLER_DAEMON_HEADER, CALLER_NODE_HEADER } from '@sfdb/proto/metadata';
import { CallLedger } from '../db/call-ledger.js';
import type { Sql } from '../db/sql.js';
import type { QuerySource } from '../metrics.js';
import type { Caller } from '../caller.js';
import type { Write } from '../changefeed/publish.js';
import type { CallContext } from '../rpc/context.js';
import { isMalformed, malformedDetails } from './malformed.js';
import type { CallerRateLimits } from './rate-limit.js';
import { callIdentities, checkCaller } from './tls.js';
import type { Denial } from './tls.js';
import { wireFault } from './wire-faults.js';
import { toServiceError } from './error-status.js';

export { CALLER_DAEMON_HEADER, CALLER_NODE_HEADER };

function header(metadata: grpc.Metadata, key: string): string {
  const values = metadata.get(key);
  const v = values[0];
  return typeof v === 'string' ? v : '';
}

export function callerOf(metadata: grpc.Metadata): Caller {
  return { daemon: header(metadata, CALLER_DAEMON_HEADER), node: header(metadata, CALLER_NODE_HEADER) };
}

export interface UnaryDeps {
  /** The shared part; each call gets its own Sql (its deadline, its ledger) and Write over it. */
  readonly context: Omit<CallContext, 'caller' | 'signal' | 'write'>;
  readonly log: Logger;
  /** mTLS is on: every call's certificate identity is checked against its claims. */
  readonly tls?: boolean;
  /** Told of each call refused by the identity check (metrics, a log line per peer). */
  readonly onDenied?: (denial: Denial, peer: string) => void;
  /** Per-caller token buckets; a refused call never reaches its handler. */
  readonly limits?: CallerRateLimits;
  /** Told of each refused call (metrics). */
  readonly onRateLimited?: (limit: 'node' | 'daemon', caller: Caller) => void;
}

/** Wraps a handler as a grpc-js unary handler. */
export function unary<Req, Res>(
  operation: string,
  handler: (request: Req, ctx: CallContext) => Promise<Res>,
  deps: UnaryDeps,
): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    const fault = isMalformed(call.request) ? malformedDetails(call.request, operation) : wireFault(call.metadata);
    if (fault !== undefined) {
      callback({ code: grpc.status.INVALID_ARGUMENT, details: fault } as grpc.ServiceError);
      return;
    }
    const caller = callerOf(call.metadata);
    if (deps.tls) {
      const denial = checkCaller(callIdentities(call), caller, operation);
      if (denial) {
        deps.onDenied?.(denial, call.getPeer());
        callback(toServiceError(new PermissionDeniedError(denial.message), operation, deps.log) as grpc.ServiceError);
        return;
      }
    }
    const verdict = deps.limits?.check(caller.node, caller.daemon, call);
    if (verdict?.refusedBy) {
      deps.onRateLimited?.(verdict.refusedBy, caller);
      const who = verdict.refusedBy === 'node' ? 'this caller node' : 'this daemon of its node';
      const err = new ResourceExhaustedError(`rate limit: ${who} is over its calls per second; retry after the pushback`, verdict.pushbackMs, true);
      callback(toServiceError(err, operation, deps.log, err.ranNothing) as grpc.ServiceError);
      return;
    }
    // The call's deadline bounds its statements (Sql.bounded): none past it keeps running.
    const deadline = call.getDeadline();
    const ctx = new UnaryCallContext(deps.context, caller, call, deadline instanceof Date ? deadline.getTime() : deadline);
    handler(call.request, ctx).then(
      (response) => callback(null, response),
      (err: unknown) => callback(toServiceError(err, operation, deps.log, ctx.ledger.tookNoEffect(err)) as grpc.ServiceError),
    );
  };
}

type BaseContext = UnaryDeps['context'];

/**
 * A call's context: its caller and the tier's shared parts, with the call's own Sql
 * (bound to its deadline, counted in its ledger) and the cancellation signal made only
 * when a handler asks for them (getters, so a handler may destructure them; most calls
 * use `sql` alone, and only a long-poll asks for `signal`). One object per call instead
 * of a copy of the shared parts and its closures.
 */
class UnaryCallContext implements CallContext {
  /** Every statement of the call is counted: a refusal before any was sent says so. */
  readonly ledger = new CallLedger();
  private ownSql: Sql | undefined;
  private cancelled: AbortController | undefined;

  constructor(
    private readonly base: BaseContext,
    readonly caller: Caller,
    private readonly call: grpc.ServerUnaryCall<unknown, unknown>,
    /** ms since the epoch, or Infinity for a call without a deadline. */
    private readonly deadlineAt: number,
  ) {}

  /** `sql` bound to this call's deadline and counted in its ledger. */
  private own(sql: Sql): Sql {
    return this.ledger.sql(Number.isFinite(this.deadlineAt) ? sql.bounded(this.deadlineAt) : sql);
  }

  get sql(): Sql {
    return (this.ownSql ??= this.own(this.base.sql));
  }

  get sqlAs(): (source: QuerySource) => Sql {
    return (source) => this.own(this.base.sqlAs(source));
  }

  get write(): Write {
    return ((fn, source) => this.base.feed.write(this.own(this.base.sqlAs(source ?? 'rpc')), fn)) as Write;
  }

  get groups(): BaseContext['groups'] {
    // A batch's refusal may follow a batch statement that committed.
    this.ledger.sharesWrites();
    return this.base.groups;
  }

  get feed(): BaseContext['feed'] {
    return this.base.feed;
  }

  get leaseEnds(): BaseContext['leaseEnds'] {
    return this.base.leaseEnds;
  }

  get config(): BaseContext['config'] {
    return this.base.config;
  }

  get metrics(): BaseContext['metrics'] {
    return this.base.metrics;
  }

  get log(): Logger {
    return this.base.log;
  }

  /** Aborted when the client cancels or its deadline passes, so a long-poll stops waiting. */
  get signal(): AbortSignal {
    if (this.cancelled === undefined) {
      const c = new AbortController();
      this.cancelled = c;
      if (this.call.cancelled) c.abort();
      else this.call.once('cancelled', () => c.abort());
    }
    return this.cancelled.signal;
  }
}
