// The one unary adapter: admits the call (admission.ts, steps 5 to 9), awaits every async
// handler (grpc-js ignores a returned promise) and answers typed errors, refusals
// included, through toServiceError (error-status.ts), the one place they become a status,
// logged with the call's trace id (or call id).
import type * as grpc from '@grpc/grpc-js';
import { ROOT_CONTEXT } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { CALLER_DAEMON_HEADER, CALLER_NODE_HEADER } from '@sfdb/proto/metadata';
import type { RootDraw } from '@sfdb/proto/runtime/tracing-roots';
import { CallLedger } from '../db/call-ledger.js';
import { CallOwner } from '../db/owner.js';
import type { PairOwner, StatementOwner } from '../db/owner.js';
import type { Sql } from '../db/sql.js';
import type { CallerNames } from '../caller-names.js';
import type { CallGroups, Groups } from '../rpc/groups.js';
import type { QuerySource } from '../metrics.js';
import type { Caller } from '../caller.js';
import type { Write } from '../changefeed/publish.js';
import type { CallContext } from '../rpc/context.js';
import { admitCall, overBacklog } from './admission.js';
import type { AdmissionDeps } from './admission.js';
import { callTraceOf, nextCallId } from './call-trace.js';
import type { CallTraceView } from './call-trace.js';
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

export interface UnaryDeps extends AdmissionDeps {
  /** The shared part; each call gets its own Sql (its deadline, its ledger, its owner), Write, trace and log over it. */
  readonly context: Omit<CallContext, 'caller' | 'signal' | 'write' | 'trace' | 'groups'> & { readonly groups: Groups };
  /** The caller_daemon label of a call (the interceptor admitted the name already). */
  readonly callerNames: Pick<CallerNames, 'label'>;
  /** The kept owner of a (operation, caller_daemon) pair (Database.pairOwner). */
  readonly pairOwner: (operation: string, callerDaemon: string) => PairOwner;
  /** How the call layer draws roots, when it does (its callInterceptor's `draw`): a call it dropped is a DroppedCall here. */
  readonly rootDraw?: RootDraw;
}

/** Wraps a handler as a grpc-js unary handler. */
export function unary<Req, Res>(
  operation: string,
  handler: (request: Req, ctx: CallContext) => Promise<Res>,
  deps: UnaryDeps,
): grpc.handleUnaryCall<Req, Res> {
  const run = (call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>): void => {
    // The call's deadline bounds its statements (Sql.bounded): none past it keeps running.
    const deadline = call.getDeadline();
    const ctx = new UnaryCallContext(deps, operation, callerOf(call.metadata), call, deadline instanceof Date ? deadline.getTime() : deadline, callTraceOf(call.metadata, deps.rootDraw));
    const answerError = (err: unknown): void => callback(toServiceError(err, operation, ctx.log, ctx.ledger.tookNoEffect(err)) as grpc.ServiceError);
    // A refusal before the handler: its ledger is empty, so it took no effect if it ran nothing.
    const refusal = admitCall(call, ctx.caller, operation, deps);
    ctx.callTrace?.admitted(refusal === undefined);
    if (refusal !== undefined) {
      answerError(refusal);
      return;
    }
    handler(call.request, ctx).then((response) => {
      // Calls admitted together may each add an answer: one that wrote nothing is refused
      // instead once its connection's unread answers are over their cap (backlog.ts).
      const unread = ctx.ledger.wroteAnything() ? undefined : overBacklog(call, deps);
      if (unread === undefined) callback(null, response);
      else answerError(unread);
    }, answerError);
  };
  // A call its client reset in the same read as its request (rapid reset: HEADERS, DATA,
  // RST_STREAM) reaches this adapter before grpc-js has seen the reset; one turn of the
  // event loop later it is marked cancelled, and its handler (its statements) never runs.
  return (call, callback) =>
    void setImmediate(() => {
      if (!call.cancelled) run(call, callback);
    });
}

type BaseContext = UnaryDeps['context'];

/** A call's view of group commit: its rows are written with its owner, so a batch's seconds are shared among its calls. */
class OwnedGroups implements CallGroups {
  readonly commit: CallGroups['commit'];

  constructor(
    groups: Groups,
    owner: StatementOwner,
    readonly kinds = groups.kinds,
  ) {
    const { commit } = groups;
    this.commit = { enabled: commit.enabled, submit: (kind, row) => commit.submit(kind, row, owner) };
  }
}

/**
 * A call's context: its caller and the tier's shared parts, with the call's own Sql
 * (bound to its deadline, counted in its ledger), its log and the cancellation signal
 * made only when a handler asks for them (getters, so a handler may destructure them;
 * most calls use `sql` alone, only a long-poll asks for `signal`, and a call that logs
 * nothing makes no logger). One object per call instead of a copy of the shared parts
 * and its closures.
 */
class UnaryCallContext implements CallContext {
  /** Every statement of the call is counted: a refusal before any was sent says so. */
  readonly ledger = new CallLedger();
  private ownSql: Sql | undefined;
  private ownOwner: StatementOwner | undefined;
  private ownLog: Logger | undefined;
  private cancelled: AbortController | undefined;
  private readonly base: BaseContext;

  constructor(
    private readonly deps: UnaryDeps,
    private readonly operation: string,
    readonly caller: Caller,
    private readonly call: grpc.ServerUnaryCall<unknown, unknown>,
    /** ms since the epoch, or Infinity for a call without a deadline. */
    private readonly deadlineAt: number,
    /** The call's span, when it is traced (call-trace.ts). */
    readonly callTrace: CallTraceView | undefined,
  ) {
    this.base = deps.context;
  }

  /**
   * Whom the call's statements are charged to and named for: its operation, caller daemon
   * and node; when the call is sampled, its traceparent too, and its span their parent.
   */
  private get owner(): StatementOwner {
    if (this.ownOwner === undefined) {
      const { deps, operation, caller } = this;
      this.ownOwner = new CallOwner(deps.pairOwner(operation, deps.callerNames.label(caller.daemon)), caller.node, this.callTrace?.ownerTrace(), () => this.log);
    }
    return this.ownOwner;
  }

  /** `sql` charged to this call, bound to its deadline and counted in its ledger. */
  private own(sql: Sql): Sql {
    const owned = sql.owned(this.owner);
    return this.ledger.sql(Number.isFinite(this.deadlineAt) ? owned.bounded(this.deadlineAt) : owned);
  }

  get sql(): Sql {
    return (this.ownSql ??= this.own(this.base.sql));
  }

  get sqlAs(): (source: QuerySource) => Sql {
    return (source) => this.own(this.base.sqlAs(source));
  }

  get write(): Write {
    // Its changes keep the call's span when it is sampled: a wake-up they answer links to it.
    const writer = this.callTrace?.sampled === undefined ? undefined : this.callTrace.spanContext;
    return ((fn, source) => this.base.feed.write(this.own(this.base.sqlAs(source ?? 'rpc')), fn, writer)) as Write;
  }

  get groups(): CallGroups {
    // A batch's refusal may follow a batch statement that committed.
    this.ledger.sharesWrites();
    return new OwnedGroups(this.base.groups, this.owner);
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

  /** The replica's log with the call's trace_id on every line, or a call_id when it is not traced; made on first use. */
  get log(): Logger {
    return (this.ownLog ??= this.base.log.child(this.callTrace ? { trace_id: this.callTrace.traceId } : { call_id: nextCallId() }));
  }

  get trace(): Context {
    return this.callTrace?.spanContext ?? ROOT_CONTEXT;
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
