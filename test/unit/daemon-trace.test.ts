// The daemon framework's spans (daemons/trace.ts), with a fake clock, a scripted client
// and the in-memory exporter: a span per iteration that did work and none for a wake-up
// that found nothing; a queue job's span under its iteration's; the framework's calls
// given their span's context (the `trace` option), and a job's handler too (JobContext,
// and the API's active context where a context manager is registered).
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import { StackContextManager } from '@opentelemetry/sdk-trace';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentDaemon, ClusterDaemon, QueuesDaemon, daemonSettings } from '../../daemons/index.js';
import type { AgentDb, ClusterDb, QueuesDb } from '../../daemons/index.js';
import { FakeClock, flush } from '../helpers/fake-clock.js';
import { FakeDaemonDb } from '../helpers/fake-daemon-db.js';
import { useInMemoryTracing } from '../helpers/tracing.js';

const NODE = '00000000-0000-4000-8000-000000000001';
const log = pino({ level: 'silent' });
const tracing = useInMemoryTracing();
// A process with a context manager of its own (sf-daemon registers none): the job's handler
// finds its span as the active context.
beforeAll(() => void context.setGlobalContextManager(new StackContextManager().enable()));
afterAll(() => context.disable());

/** The client, recording the span each traced call was given (its `trace` option's). */
class TracedDb extends FakeDaemonDb {
  /** [operation, the span id of its `trace` option (undefined: none)] */
  traced: [string, string | undefined][] = [];
  private note(op: string, opts?: { trace?: Context }): void {
    this.traced.push([op, opts?.trace === undefined ? undefined : trace.getSpanContext(opts.trace)?.spanId]);
  }
  override async resolve(id: string, _epoch?: string, _outcome?: string, _result?: unknown, opts?: { trace?: Context }) {
    this.note('Resolve', opts);
    return super.resolve(id);
  }
  override async release(id: string, _epoch?: string, _options?: unknown, opts?: { trace?: Context }) {
    this.note('Release', opts);
    return super.release(id);
  }
  override async nodeHeartbeat(_node?: string, _stats?: object, opts?: { trace?: Context }) {
    this.note('NodeHeartbeat', opts);
    return super.nodeHeartbeat();
  }
  override async requeueExpiredClaims(_fence?: unknown, _limit?: number, opts?: { trace?: Context }) {
    this.note('RequeueExpiredClaims', opts);
    return super.requeueExpiredClaims();
  }
}

const spanId = (s: ReadableSpan | undefined): string | undefined => s?.spanContext().spanId;

/** The spans finished since `before`, by name. */
function finished(before: number, name: string): ReadableSpan[] {
  return tracing.exporter.getFinishedSpans().slice(before).filter((s) => s.name === name);
}

describe('daemon iteration spans', () => {
  it('queues: none while the queue is empty; one for the dequeue that claimed work, a job span under it per item', async () => {
    const clock = new FakeClock();
    const db = new TracedDb(clock);
    const seen: { ctx: Context; active: Context }[] = [];
    const d = new QueuesDaemon({ name: 'queues', nodeUuid: NODE, db: db as unknown as QueuesDb, clock, log, settings: daemonSettings({}, { dequeueBatch: 4 }) });
    d.handle('jobs', async (payload, ctx) => {
      seen.push({ ctx: ctx.trace, active: context.active() });
      if ((payload as { fail?: boolean }).fail) throw new Error('no');
      return 'done';
    });
    const before = tracing.exporter.getFinishedSpans().length;
    await d.start();
    await clock.advance(1_400); // empty dequeues at 0, 200, 600, 1400
    expect(db.times('Dequeue')).toEqual([0, 200, 600, 1400]);
    expect(finished(before, 'queues iteration')).toEqual([]);

    db.queue = [
      { id: 'a', queue: 'jobs', payload: '{}' },
      { id: 'b', queue: 'jobs', payload: '{"fail":true}' },
    ];
    await clock.advance(1_600);
    await flush(20);
    expect(db.resolved).toEqual(['a']);
    expect(db.released).toEqual(['b']);
    const [iteration, ...more] = finished(before, 'queues iteration');
    expect(more).toEqual([]);
    expect(iteration?.kind).toBe(SpanKind.INTERNAL);
    expect(iteration?.parentSpanContext).toBeUndefined();
    expect(iteration?.attributes).toMatchObject({ 'sfdb.daemon': 'queues', 'sfdb.node': NODE });
    const jobs = finished(before, 'job jobs');
    expect(jobs.map((j) => [j.attributes['sfdb.work_item'], j.attributes['sfdb.outcome'], j.status.code])).toEqual([
      ['a', 'succeeded', SpanStatusCode.UNSET],
      ['b', 'released', SpanStatusCode.ERROR],
    ]);
    for (const j of jobs) {
      expect(j.parentSpanContext?.spanId).toBe(spanId(iteration));
      expect(j.spanContext().traceId).toBe(iteration?.spanContext().traceId);
    }
    // Each job's calls and its handler are given the job's span.
    expect(db.traced).toEqual([
      ['Resolve', spanId(jobs[0])],
      ['Release', spanId(jobs[1])],
    ]);
    expect(seen.map((s) => trace.getSpanContext(s.ctx)?.spanId)).toEqual([spanId(jobs[0]), spanId(jobs[1])]);
    expect(seen.map((s) => trace.getSpanContext(s.active)?.spanId)).toEqual([spanId(jobs[0]), spanId(jobs[1])]);
    await d.stop();
  });

  it('agent: every heartbeat is an iteration that did work, the heartbeat its child', async () => {
    const clock = new FakeClock();
    const db = new TracedDb(clock);
    const d = new AgentDaemon({ name: 'agent', nodeUuid: NODE, db: db as unknown as AgentDb, clock, log, settings: daemonSettings({}) });
    const before = tracing.exporter.getFinishedSpans().length;
    await d.start();
    await clock.advance(20_000);
    await flush(20);
    const iterations = finished(before, 'agent iteration');
    expect(iterations).toHaveLength(3); // 0, 10 s, 20 s
    expect(db.traced).toEqual(iterations.map((i) => ['NodeHeartbeat', spanId(i)]));
    await d.stop();
  });

  it('cluster: a span for a step that ran maintenance, none for one that found no job due', async () => {
    const clock = new FakeClock();
    const db = new TracedDb(clock);
    const settings = daemonSettings({});
    const d = new ClusterDaemon({ name: 'cluster', nodeUuid: NODE, db: db as unknown as ClusterDb, clock, log, settings });
    const before = tracing.exporter.getFinishedSpans().length;
    await d.start();
    await flush(20);
    await clock.advance(settings.recoverySweepMs - 1);
    // Elected at 0: every job ran once, in one traced step; the steps since (its lease's
    // checks) found nothing due.
    expect(db.times('RequeueExpiredClaims')).toEqual([0]);
    const [iteration, ...more] = finished(before, 'cluster iteration');
    expect(more).toEqual([]);
    expect(db.traced).toEqual([['RequeueExpiredClaims', spanId(iteration)]]);
    await d.stop();
  });

  it('outside a step, the framework gives the root context', () => {
    class Probe extends AgentDaemon {
      outside(): Context {
        return this.trace;
      }
    }
    const clock = new FakeClock();
    const d = new Probe({ name: 'agent', nodeUuid: NODE, db: new TracedDb(clock) as unknown as AgentDb, clock, log, settings: daemonSettings({}) });
    expect(d.outside()).toBe(ROOT_CONTEXT);
  });
});
