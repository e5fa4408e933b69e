// The queues daemon: a job-handler registry, a worker pool, adaptive dequeue, claims
// renewed while a job runs, Resolve on success, Release with backoff on failure, and
// fenced writes refused cleanly (the claim moved on: the job's result is dropped). In
// feed mode an enqueue on one of its queues wakes it through the change feed; it then
// dequeues until a batch is not full. A batch short of full says when the next delayed
// item (delayed, or released with backoff) is due, and the daemon looks again then;
// otherwise every feedSafetyPollMs. A dequeue that claimed work makes its iteration's
// span, and each job a span under it (trace.ts).
import { context } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import { Fenced, jitteredDelay } from '@sfdb/client';
import { topics } from '@sfdb/proto/topics';
import type { Claim, DatabaseClient } from '@sfdb/client';
import { Daemon } from './daemon.js';
import type { DaemonDb, DaemonOptions } from './types.js';
import { DequeueBackoff, WorkerPool, outcomeOf } from './dequeue.js';
import { jobs } from './metrics.js';
import type { PeriodicTask } from './periodic.js';
import { startJobSpan } from './trace.js';

export type QueuesDb = DaemonDb & Pick<DatabaseClient, 'dequeueWithNextDue' | 'renewClaim' | 'resolve' | 'release'>;

export interface JobContext {
  id: string;
  queue: string;
  epoch: string;
  /** 1 on the first claim of the item, then one more for every claim. */
  attempts: number;
  /** Aborted when the claim is lost (fenced) or the daemon stops: stop working. */
  signal: AbortSignal;
  /**
   * The job's span as an OpenTelemetry Context: pass it as the `trace` option of the calls
   * the handler makes (`db.getObject(id, { trace: ctx.trace })`), so they are the job's
   * children. (The handler also runs within it as the API's active context, which a
   * process with a context manager of its own reads.)
   */
  trace: Context;
}

/** Handles one work item's JSON payload; its result (JSON-able) is stored on Resolve. */
export type JobHandler = (payload: unknown, ctx: JobContext) => Promise<unknown>;

/** A QueuesDaemon's options; `Db`, its client's type: a subclass's own (see QueuesDaemon). */
export interface QueuesDaemonOptions<Db extends QueuesDb = QueuesDb> extends DaemonOptions<Db> {
  /** After this many attempts a failing item is resolved FAILED instead of released. */
  maxAttempts?: number;
}

/**
 * Runs the handlers of its node's queues. Generic over its client: a subclass that makes
 * other calls too asks for them in `Db` (`QueuesDaemon<QueuesDb & Pick<DatabaseClient,
 * 'getObject'>>`, or the whole `DatabaseClient`) and makes them on `this.db`.
 */
export class QueuesDaemon<Db extends QueuesDb = QueuesDb> extends Daemon<Db> {
  /** Insertion order is priority order: earlier queues are drained first. */
  private readonly handlers = new Map<string, JobHandler>();
  private readonly pool: WorkerPool;
  private readonly backoff: DequeueBackoff;
  private readonly maxAttempts: number;
  private readonly holder: string;
  private waitingForSlot = false;
  /** Each running job's abort: aborted when its claim is lost or the daemon stops. */
  private readonly jobSignals = new Set<AbortController>();
  private dequeues = 0;

  constructor(options: QueuesDaemonOptions<Db>) {
    super(options);
    this.pool = new WorkerPool(this.settings.queueWorkers, () => {
      if (this.waitingForSlot) {
        this.waitingForSlot = false;
        this.wake();
      }
    });
    this.backoff = new DequeueBackoff(this.settings.dequeueBackoffMs);
    this.maxAttempts = options.maxAttempts ?? 5;
    this.holder = `${this.name}@${this.nodeUuid}/${process.pid}`;
  }

  /** Registers the handler of a queue; queues registered first are drained first. */
  handle(queue: string, handler: JobHandler): this {
    if (this.handlers.has(queue)) throw new Error(`queue ${queue} already has a handler`);
    this.handlers.set(queue, handler);
    return this;
  }

  /** Feed mode: a change on one of its queues (an item enqueued, released, requeued) ends the idle. */
  protected override feedTopics(): string[] {
    return [...this.handlers.keys()].map((queue) => topics.queue(this.nodeUuid, queue));
  }

  protected override periodicTasks(): Omit<PeriodicTask, 'daemon'>[] {
    const steps = this.settings.dequeueBackoffMs;
    return [
      this.usesFeed
        ? {
            task: 'dequeue',
            operation: 'Dequeue',
            intervalMs: this.settings.feedSafetyPollMs,
            scale: 'process',
            duty: 'start a work item that became due by time (delayed or released with backoff) when no dequeue said when; enqueues wake it through the feed (fallback: the dequeue backoff)',
          }
        : {
            task: 'dequeue',
            operation: 'Dequeue',
            intervalMs: steps[steps.length - 1] as number,
            minIntervalMs: steps[0] as number,
            scale: 'process',
            duty: 'start a work item enqueued for this node while idle',
          },
      {
        task: 'claim-renewal',
        operation: 'RenewClaim',
        intervalMs: Math.floor(this.settings.claimLeaseMs / 3),
        scale: 'job',
        duty: 'keep the claim of a running job',
      },
    ];
  }

  protected override async onStart(): Promise<void> {
    if (this.handlers.size === 0) throw new Error(`${this.name}: no job handlers registered`);
  }

  protected async step(): Promise<number> {
    if (this.pool.free === 0) {
      // Saturation is not emptiness: wait for a slot (a finishing job wakes us), no call.
      this.waitingForSlot = true;
      return this.settings.daemonStatePollMs;
    }
    const limit = Math.min(this.pool.free, this.settings.dequeueBatch);
    this.dequeues += 1;
    const { claims, nextDueInMs } = await this.db.dequeueWithNextDue({
      nodeUuid: this.nodeUuid,
      queues: [...this.handlers.keys()],
      limit,
      leaseMs: this.settings.claimLeaseMs,
      holder: this.holder,
    });
    if (claims.length > 0) {
      // Work found: the iteration is traced, and each job under it.
      const iteration = this.trace;
      for (const claim of claims) this.pool.run(() => this.process(claim, iteration));
    }
    const outcome = outcomeOf(claims.length, limit);
    if (this.feedActive) {
      // The feed wakes us when an item arrives; until then only items due by time need a
      // look: when the next one is due, or at the safety poll.
      // Its own queues' changes only: a subclass's own topics keep theirs.
      this.takeChanges(new Set(QueuesDaemon.prototype.feedTopics.call(this)));
      this.backoff.reset();
      if (outcome === 'full') return 0;
      return nextDueInMs > 0 ? Math.min(nextDueInMs, this.settings.feedSafetyPollMs) : this.settings.feedSafetyPollMs;
    }
    return this.backoff.next(outcome);
  }

  private async process(claim: Claim, iteration: Context): Promise<void> {
    const item = claim.item;
    if (!item) return;
    const handler = this.handlers.get(item.queue);
    const lost = new AbortController();
    const stopRenewing = new AbortController();
    const span = startJobSpan(iteration, item.queue, item.id, item.attempts);
    const trace = span.context;
    const ctx: JobContext = {
      id: item.id,
      queue: item.queue,
      epoch: claim.epoch,
      attempts: item.attempts,
      signal: lost.signal,
      trace,
    };
    this.jobSignals.add(lost);
    const renewing = this.renewWhileRunning(item.id, claim.epoch, lost, stopRenewing.signal, trace);
    let outcome: 'succeeded' | 'failed' | 'released' | 'fenced' = 'succeeded';
    let failure: unknown;
    try {
      let payload: unknown = null;
      try {
        payload = JSON.parse(item.payload);
      } catch {
        payload = item.payload;
      }
      if (!handler) throw new Error(`no handler for queue ${item.queue}`);
      const result = await context.with(trace, () => handler(payload, ctx));
      stopRenewing.abort();
      await renewing;
      if (lost.signal.aborted) outcome = 'fenced';
      else await this.db.resolve(item.id, claim.epoch, 'SUCCEEDED', result ?? null, { trace });
    } catch (err) {
      stopRenewing.abort();
      await renewing;
      if (err instanceof Fenced || lost.signal.aborted) {
        outcome = 'fenced';
      } else {
        failure = err;
        outcome = await this.fail(item.id, claim.epoch, item.attempts, err, trace);
      }
    } finally {
      stopRenewing.abort();
      this.jobSignals.delete(lost);
      jobs.inc({ daemon: this.name, queue: item.queue, outcome });
      span.end(outcome, failure);
    }
    if (outcome === 'fenced') this.log.warn({ id: item.id, epoch: claim.epoch }, 'the claim moved on; the result is dropped');
  }

  /** A failed job: released with backoff to try again, or FAILED after maxAttempts. */
  private async fail(id: string, epoch: string, attempts: number, err: unknown, trace: Context): Promise<'failed' | 'released' | 'fenced'> {
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
    try {
      if (attempts >= this.maxAttempts) {
        await this.db.resolve(id, epoch, 'FAILED', { error: message }, { trace });
        return 'failed';
      }
      await this.db.release(id, epoch, { delayMs: jitteredDelay(attempts, 1000, 300_000), message }, { trace });
      return 'released';
    } catch (e) {
      if (e instanceof Fenced) return 'fenced';
      this.countError(e);
      return 'failed';
    }
  }

  /** Renews the claim every third of its lease until the job ends; Fenced aborts the job. */
  private async renewWhileRunning(id: string, epoch: string, lost: AbortController, done: AbortSignal, trace: Context): Promise<void> {
    const every = Math.floor(this.settings.claimLeaseMs / 3);
    for (;;) {
      await this.clock.sleep(every, done);
      if (done.aborted) return;
      try {
        await this.db.renewClaim(id, epoch, this.settings.claimLeaseMs, { trace });
      } catch (err) {
        if (err instanceof Fenced) {
          lost.abort();
          return;
        }
        this.countError(err);
      }
    }
  }

  protected override async onStop(): Promise<void> {
    // Running jobs see ctx.signal aborted; their claims are resolved or released as they end.
    for (const job of this.jobSignals) job.abort();
    await this.pool.drain();
  }

  override snapshot(): ReturnType<Daemon['snapshot']> & { dequeues: number; busy: number } {
    return { ...super.snapshot(), dequeues: this.dequeues, busy: this.pool.busy };
  }
}
