// The tier's inner spans, through a real tier (in-process, on this file's database) with
// the trace SDK and its in-memory exporter registered in this process: a sampled call's
// statements are CLIENT spans under its SERVER span (a transaction's BEGIN and COMMIT too),
// named in MariaDB's general log by the call's traceparent and closed after use; a
// group-commit batch is a span linked to each sampled call it answered, its statement its
// child; a long-poll answered by a sampled write links to that write's span; a sampled
// call's trace id is its duration bucket's exemplar; a call that is not sampled makes no span.
// The group-commit window is long (500 ms) and the kind is made busy first, so two calls
// sent together share a batch (group-commit.test.ts does the same); the feed's tail is
// slow (60 s), so a local commit reaches the window before the tail could read its rows.
import { randomBytes, randomUUID } from 'node:crypto';
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import type { Context, Span } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { topics } from '../../proto/topics.js';
import { useTestTier } from '../helpers/tier.js';
import { useInMemoryTracing } from '../helpers/tracing.js';
import { generalLog } from '../helpers/general-log.js';
import type { LoggedCommand } from '../helpers/general-log.js';

const tracing = useInMemoryTracing();
const { t, db } = useTestTier({ env: { SFDB_GROUP_COMMIT_MS: '500', SFDB_GROUP_COMMIT_MAX_CALLS: '1000', SFDB_CHANGEFEED_TAIL_MS: '60000' } });
const tracer = trace.getTracer('tracing-statements-test');

/** A test span as the parent of a client call, and its trace's finished spans once ended. */
function traced(): { context: Context; span: Span; traceId: string; spans: () => ReadableSpan[] } {
  const span = tracer.startSpan('test');
  const { traceId } = span.spanContext();
  return { context: trace.setSpan(ROOT_CONTEXT, span), span, traceId, spans: () => tracing.spansOf(traceId) };
}

const serverSpan = (spans: ReadableSpan[], method: string): ReadableSpan => {
  const s = spans.find((x) => x.kind === SpanKind.SERVER && x.name === `sfdb.v1.Database/${method}`);
  if (s === undefined) throw new Error(`no SERVER span of ${method} among ${spans.map((x) => x.name).join(', ')}`);
  return s;
};

const childrenOf = (spans: ReadableSpan[], parent: ReadableSpan): ReadableSpan[] =>
  spans.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId).sort((a, b) => (a.startTime[0] - b.startTime[0]) * 1e9 + (a.startTime[1] - b.startTime[1]));

async function createNode(): Promise<string> {
  const uuid = randomUUID();
  await db.createNode({ uuid, fqdn: `${uuid}.trace.example` });
  return uuid;
}

describe("a sampled call's statements", () => {
  it('are CLIENT spans under its SERVER span: BEGIN (with its wait for a connection), each statement, COMMIT', async () => {
    const node = await createNode();
    const call = traced();
    await db.updateNode(node, { fqdn: `${node}.renamed.example` }, { trace: call.context });
    call.span.end();
    const spans = call.spans();
    const server = serverSpan(spans, 'UpdateNode');
    const statements = childrenOf(spans, server);
    const names = statements.map((s) => s.name);
    expect(names[0]).toBe('db BEGIN');
    expect(names[names.length - 1]).toBe('db COMMIT');
    expect(names).toContain('db selectNode (rpc/nodes/queries.ts)');
    expect(names).toContain('db updateNode (rpc/nodes/queries.ts)');
    for (const s of statements) {
      expect(s.kind).toBe(SpanKind.CLIENT);
      expect(s.attributes).toMatchObject({ 'db.system.name': 'mariadb', 'sfdb.query_source': 'rpc', 'sfdb.operation': 'UpdateNode' });
    }
    const begin = statements[0] as ReadableSpan;
    expect(begin.events.map((e) => e.name)).toEqual(['connection']);
    expect(Number(begin.attributes['sfdb.pool_wait_ms'])).toBeGreaterThanOrEqual(0);
    const update = statements.find((s) => s.name === 'db updateNode (rpc/nodes/queries.ts)');
    expect(update?.attributes).toMatchObject({ 'db.operation.name': 'UPDATE', 'sfdb.affected_rows': 1 });
    const select = statements.find((s) => s.name === 'db selectNode (rpc/nodes/queries.ts)');
    expect(select?.attributes['db.response.returned_rows']).toBe(1);
  });

  it("outside a transaction: the statement's wait for its connection is an event; a failure is the span's error", async () => {
    const call = traced();
    await db.getNode(randomUUID(), { trace: call.context }).catch(() => undefined);
    call.span.end();
    const spans = call.spans();
    const [read, ...others] = childrenOf(spans, serverSpan(spans, 'GetNode'));
    expect(others).toEqual([]);
    expect(read?.name).toMatch(/^db \S+ \(rpc\/nodes\/queries\.ts\)$/);
    expect(read?.events.map((e) => e.name)).toEqual(['connection']);
    expect(read?.attributes).toMatchObject({ 'db.operation.name': 'SELECT', 'db.response.returned_rows': 0 });
  });

  it("run against MariaDB with the call's traceparent in their comment (the general log) and leave no prepared statement behind", async () => {
    const node = await createNode();
    const uncached = t.client({ cache: false }); // every read an RPC
    await uncached.getNode(node); // its plain text, prepared once and kept
    const calls = Array.from({ length: 20 }, () => traced());
    const logged = await generalLog(t.direct, async () => {
      for (const call of calls) await uncached.getNode(node, { trace: call.context });
    });
    for (const call of calls) call.span.end();
    for (const call of calls) {
      const server = serverSpan(call.spans(), 'GetNode');
      const traceparent = `00-${call.traceId}-${server.spanContext().spanId}-01`;
      const mine = logged.filter((r) => r.argument.includes(`traceparent='${traceparent}'`));
      expect(mine.map((r) => r.command).sort()).toEqual(['Execute', 'Prepare']);
      // Closed on the connection that prepared it (MariaDB logs a close without its text):
      // a unique text is never left to fill the server's prepared-statement slots. (The
      // server-wide Prepared_stmt_count is no measure here: other test files prepare meanwhile.)
      const prepared = mine.find((r) => r.command === 'Prepare') as LoggedCommand;
      expect(logged.some((r) => r.thread === prepared.thread && r.command === 'Close stmt')).toBe(true);
    }
    const closes = logged.filter((r) => r.command === 'Close stmt').length;
    expect(closes).toBeGreaterThanOrEqual(calls.length);
  });
});

describe('a group-commit batch', () => {
  it('is a span linked to each sampled call it answered, its statements its children', async () => {
    const nodes = [await createNode(), await createNode()];
    await db.setNodeDaemonState(await createNode(), 'primer', 'RUNNING');
    const calls = nodes.map(() => traced());
    await Promise.all(nodes.map((n, i) => db.setNodeDaemonState(n, 'traced', 'RUNNING', '', { trace: calls[i]?.context })));
    for (const call of calls) call.span.end();
    const serverIds = calls.map((call) => serverSpan(call.spans(), 'SetNodeDaemonState').spanContext().spanId);
    const all = tracing.exporter.getFinishedSpans();
    const batch = all.find((s) => s.name === 'group commit daemon_state' && s.links.some((l) => serverIds.includes(l.context.spanId)));
    expect(batch?.kind).toBe(SpanKind.INTERNAL);
    expect(batch?.links.map((l) => l.context.spanId).sort()).toEqual([...serverIds].sort());
    expect(batch?.attributes).toMatchObject({ 'sfdb.group_commit.kind': 'daemon_state', 'sfdb.group_commit.calls': 2 });
    const statements = childrenOf(all, batch as ReadableSpan);
    expect(statements.map((s) => s.name)).toContain('db BEGIN');
    expect(statements.map((s) => s.name)).toContain('db COMMIT');
    expect(statements.some((s) => s.name.startsWith('db upsertDaemonStates'))).toBe(true);
  });
});

describe('a change-feed wake-up', () => {
  it("links the long-poll's span to the span of the write that woke it", async () => {
    const node = await createNode();
    const topic = topics.staticValues('node');
    const { cursor } = await db.waitForChanges({ topics: [topic], cursor: '' });
    const poll = traced();
    const answered = db.waitForChanges({ topics: [topic], cursor, timeoutMs: 30_000 }, { trace: poll.context });
    const write = traced();
    await db.updateNode(node, { fqdn: `${node}.woke.example` }, { trace: write.context });
    const answer = await answered;
    poll.span.end();
    write.span.end();
    expect(answer.changes.map((c) => c.id)).toContain(node);
    const writer = serverSpan(write.spans(), 'UpdateNode');
    const waiter = serverSpan(poll.spans(), 'WaitForChanges');
    expect(waiter.links.map((l) => l.context)).toContainEqual(expect.objectContaining({ traceId: write.traceId, spanId: writer.spanContext().spanId }));
  });
});

describe('exemplars', () => {
  it("a sampled call's trace id is the exemplar of its duration bucket", async () => {
    const call = traced();
    await db.listNodes({}, { trace: call.context });
    call.span.end();
    const res = await fetch(`http://127.0.0.1:${t.tier.httpPort}/metrics`, { headers: { Accept: 'application/openmetrics-text; version=1.0.0' } });
    const lines = (await res.text()).split('\n').filter((l) => l.startsWith('database_request_duration_seconds_bucket{') && l.includes('operation="ListNodes"'));
    const spanId = serverSpan(call.spans(), 'ListNodes').spanContext().spanId;
    expect(lines.filter((l) => l.includes(`trace_id="${call.traceId}"`) && l.includes(`span_id="${spanId}"`))).toHaveLength(1);
  });
});

describe('a call that is not sampled', () => {
  it('makes no span: no statement, no batch, nothing exported for its trace', async () => {
    const node = await createNode();
    const traceId = randomBytes(16).toString('hex');
    const unsampled = trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: randomBytes(8).toString('hex'), traceFlags: TraceFlags.NONE, isRemote: true });
    await db.updateNode(node, { fqdn: `${node}.quiet.example` }, { trace: unsampled });
    await db.setNodeDaemonState(node, 'quiet', 'RUNNING', '', { trace: unsampled });
    expect(tracing.spansOf(traceId)).toEqual([]);
    // Nothing links to it either (a batch or a wake-up would, had it been sampled).
    expect(tracing.exporter.getFinishedSpans().filter((s) => s.links.some((l) => l.context.traceId === traceId))).toEqual([]);
  });
});
