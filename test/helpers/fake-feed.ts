// A fake WaitForChanges the test answers by hand, and a ChangeWaiter on a fake clock over
// it: for the change waiter's unit tests.
import { Registry } from 'prom-client';
import { expect } from 'vitest';
import type { FeedCalls, FeedChange, WaitForChangesAnswer, WaitForChangesInput } from '../../client/api/changes.js';
import { ChangeWaiter } from '../../client/changes.js';
import type { ChangeWaiterOptions } from '../../client/changes.js';
import { feedMetrics } from '../../client/metrics.js';
import type { CallOptions } from '../../client/transport.js';
import { topics } from '../../proto/topics.js';
import { FakeClock, flush } from './fake-clock.js';
import { metricValue } from '../../harness/scrape.js';

export interface FakeCall {
  input: WaitForChangesInput;
  signal: AbortSignal | undefined;
  answer(a: Partial<WaitForChangesAnswer>): void;
  fail(err: unknown): void;
  done: boolean;
}

/** WaitForChanges that holds every call until the test answers it; an aborted call rejects. */
export class FakeFeed implements FeedCalls {
  readonly calls: FakeCall[] = [];

  waitForChanges(input: WaitForChangesInput, opts?: CallOptions): Promise<WaitForChangesAnswer> {
    return new Promise((resolve, reject) => {
      const call: FakeCall = {
        input: { ...input, topics: [...input.topics] },
        signal: opts?.signal,
        done: false,
        answer: (a) => {
          call.done = true;
          resolve({ changes: [], cursor: input.cursor, resync: false, ...a });
        },
        fail: (err) => {
          call.done = true;
          reject(err);
        },
      };
      opts?.signal?.addEventListener('abort', () => call.fail(opts.signal?.reason), { once: true });
      this.calls.push(call);
    });
  }

  /** The one call in flight (fails the test when there is not exactly one). */
  get current(): FakeCall {
    const open = this.calls.filter((c) => !c.done);
    expect(open).toHaveLength(1);
    return open[0] as FakeCall;
  }

  get open(): number {
    return this.calls.filter((c) => !c.done).length;
  }
}

export const A = '00000000-0000-4000-8000-00000000000a';
export const B = '00000000-0000-4000-8000-00000000000b';
export const qa = topics.queue(A, 'work');
export const qb = topics.queue(B, 'work');

export function change(topic: string, id: string, kind: FeedChange['kind'] = 'updated', seq = '1'): FeedChange {
  return { seq, topic, objectType: 'work_item', id, kind };
}

export function setup(options: ChangeWaiterOptions = {}) {
  const clock = new FakeClock();
  const feed = new FakeFeed();
  const registry = new Registry();
  const waiter = new ChangeWaiter(feed, { clock, metrics: feedMetrics(registry), ...options });
  const metric = async (name: string, labels: Record<string, string> = {}) => metricValue(await registry.metrics(), name, labels);
  /** Answers the handshake: the waiter is then on the feed at cursor c1. */
  const handshake = async () => {
    await flush();
    expect(feed.current.input.cursor).toBe('');
    feed.current.answer({ cursor: 'c1' });
    await flush();
  };
  return { clock, feed, waiter, registry, metric, handshake };
}

