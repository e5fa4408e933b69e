// A traced statement's span (kind CLIENT), under its owner's trace context (owner.ts): a
// sampled call's span, or a group-commit batch's. BoundSql makes one per statement it
// sends for such an owner — each prepared statement, each BEGIN, COMMIT or ROLLBACK — and
// nothing for any other: an untraced statement costs the one test of owner.traceContext.
//
// What a span says is what the slow-statement log says (db/slow.ts), never a parameter or
// an error's text (MariaDB's may quote a value): the statement's name (the query function
// that sent it), its source, the call's operation, its wait for a pool connection (also an
// event at the handover, so the wait shows in the timeline), the rows it read or wrote,
// and on failure the error's code.
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Context, Span } from '@opentelemetry/api';
import type { QuerySource } from '../metrics.js';

const tracer = trace.getTracer('sf-database');

/** The SQL verb (SELECT, INSERT, BEGIN, ...): OpenTelemetry's db.operation.name. */
function verbOf(sql: string): string {
  const m = /^\s*([A-Za-z]+)/.exec(sql);
  return m === null ? '' : (m[1] as string).toUpperCase();
}

/** Starts the span of statement `sql`, named `db <name>`, before it asks for its connection. */
export function startStatementSpan(parent: Context, name: string, sql: string, source: QuerySource, operation: string): Span {
  return tracer.startSpan(
    `db ${name}`,
    { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'mariadb', 'db.operation.name': verbOf(sql), 'sfdb.query_source': source, 'sfdb.operation': operation } },
    parent,
  );
}

/** The statement's connection was handed over after `waitMs` (0 in a transaction: it has its own). */
export function connectionHandedOver(span: Span, waitMs: number): void {
  span.setAttribute('sfdb.pool_wait_ms', waitMs);
  span.addEvent('connection', { 'sfdb.pool_wait_ms': waitMs });
}

/** Ends the span with the statement's outcome: `answer` (its rows) when it succeeded, else `err`. */
export function endStatementSpan(span: Span, answer: unknown, err: unknown, attempt = 1): void {
  if (attempt > 1) span.setAttribute('sfdb.attempt', attempt);
  if (err !== undefined) {
    const code = (err as { code?: unknown } | undefined)?.code;
    const type = typeof code === 'string' ? code : err instanceof Error ? err.name : 'error';
    span.setAttribute('error.type', type);
    span.setStatus({ code: SpanStatusCode.ERROR, message: type });
  } else if (Array.isArray(answer)) {
    span.setAttribute('db.response.returned_rows', answer.length);
  } else {
    const affected = (answer as { affectedRows?: unknown } | undefined)?.affectedRows;
    if (typeof affected === 'number') span.setAttribute('sfdb.affected_rows', affected);
  }
  span.end();
}
