// The change waiter's interest summary, with a fake clock and a fake WaitForChanges: a
// subscription that says what it holds narrows its own topics (not those it shares with a
// plain subscription), and holding an id the summary in flight lacks re-issues the poll,
// once per burst, with the same cursor and a summary that has it.
import { describe, expect, it } from 'vitest';
import { CLIENT_METRIC_NAMES } from '../../client/metrics.js';
import { topics } from '../../proto/topics.js';
import { flush } from '../helpers/fake-clock.js';
import { qa, setup } from '../helpers/fake-feed.js';

const blobs = topics.staticValues('blob');
const nodes = topics.staticValues('node');
const X = '00000000-0000-4000-8000-0000000000a1';
const Y = '00000000-0000-4000-8000-0000000000a2';
const Z = '00000000-0000-4000-8000-0000000000a3';

describe('the interest summary', () => {
  it('narrows only the topics whose every subscriber says what it holds', async () => {
    const s = setup();
    const held = new Set([X]);
    s.waiter.subscribe([blobs, nodes], () => {}, { held: () => held });
    s.waiter.subscribe([qa, nodes]);
    await s.handshake();
    const { input } = s.feed.current;
    expect(input.cursor).toBe('c1');
    expect(input.interest?.topics).toEqual([blobs]);
    expect(input.interest?.filter.has(X)).toBe(true);
    expect(input.interest?.filter.has(Y)).toBe(false);
  });

  it('sends no summary when no subscriber says what it holds', async () => {
    const s = setup();
    s.waiter.subscribe([qa, blobs]);
    await s.handshake();
    expect(s.feed.current.input.interest).toBeUndefined();
  });

  it('re-issues the poll with the same cursor once the subscriber holds an id the summary lacks', async () => {
    const s = setup({ interestRepollMs: 20 });
    const held = new Set<string>();
    const sub = s.waiter.subscribe([blobs], () => {}, { held: () => held });
    await s.handshake();
    const first = s.feed.current;
    expect(first.input.interest?.filter.has(X)).toBe(false);
    // A burst of new ids: one re-poll, after the window.
    held.add(X);
    sub.hold(X);
    held.add(Y);
    sub.hold(Y);
    await s.clock.advance(19);
    expect(s.feed.current).toBe(first);
    await s.clock.advance(1);
    await flush();
    const second = s.feed.current;
    expect(second).not.toBe(first);
    expect(first.signal?.aborted).toBe(true);
    expect(second.input.cursor).toBe('c1');
    expect(second.input.interest?.filter.has(X)).toBe(true);
    expect(second.input.interest?.filter.has(Y)).toBe(true);
    expect(s.waiter.snapshot().repolls).toBe(1);
    expect(await s.metric(CLIENT_METRIC_NAMES.feedRepolls)).toBe(1);
    // Holding what the summary in flight has costs nothing.
    sub.hold(X);
    await s.clock.advance(1_000);
    expect(s.feed.current).toBe(second);
    expect(s.waiter.snapshot().repolls).toBe(1);
  });

  it('does not re-poll when an answer re-issued the poll with the id meanwhile', async () => {
    const s = setup({ interestRepollMs: 20 });
    const held = new Set<string>();
    const sub = s.waiter.subscribe([blobs], () => {}, { held: () => held });
    await s.handshake();
    held.add(Z);
    sub.hold(Z);
    s.feed.current.answer({ cursor: 'c2' });
    await flush();
    const next = s.feed.current;
    expect(next.input.interest?.filter.has(Z)).toBe(true);
    await s.clock.advance(100);
    expect(s.feed.current).toBe(next);
    expect(s.waiter.snapshot().repolls).toBe(0);
  });

  it('stops narrowing a topic when a plain subscriber joins it', async () => {
    const s = setup();
    s.waiter.subscribe([blobs], () => {}, { held: () => [X] });
    await s.handshake();
    const narrowed = s.feed.current;
    expect(narrowed.input.interest?.topics).toEqual([blobs]);
    s.waiter.subscribe([blobs]);
    await flush();
    expect(narrowed.signal?.aborted).toBe(true);
    expect(s.feed.current.input.interest).toBeUndefined();
    expect(s.feed.current.input.cursor).toBe('c1');
  });
});

describe('quiet reports', () => {
  const own = topics.daemonState('00000000-0000-4000-8000-0000000000b1', 'queues');

  it('keeps reports quiet only on the topics every subscriber of which says so', async () => {
    const s = setup();
    s.waiter.subscribe([own, qa], () => {}, { quietReports: [own] });
    await s.handshake();
    expect(s.feed.current.input.quietReports).toEqual([own]);
    expect(s.feed.current.input.cursor).toBe('c1');
  });

  it('sends none when no subscriber asks', async () => {
    const s = setup();
    s.waiter.subscribe([own, qa]);
    await s.handshake();
    expect(s.feed.current.input.quietReports).toBeUndefined();
  });

  it('re-issues the poll, with the same cursor, when a subscriber that wants reports joins a quiet topic', async () => {
    const s = setup();
    s.waiter.subscribe([own], () => {}, { quietReports: [own] });
    await s.handshake();
    const quiet = s.feed.current;
    expect(quiet.input.quietReports).toEqual([own]);
    s.waiter.subscribe([own]);
    await flush();
    expect(quiet.signal?.aborted).toBe(true);
    expect(s.feed.current.input.quietReports).toBeUndefined();
    expect(s.feed.current.input.cursor).toBe('c1');
  });

  it('refuses a quiet topic the subscription does not have', () => {
    const s = setup();
    expect(() => s.waiter.subscribe([qa], () => {}, { quietReports: [own] })).toThrow(/not one of its topics/);
  });
});

describe('re-issuing the poll', () => {
  it('a plain subscriber joining a topic the poll waits on, not narrowed, re-issues nothing, even while a summary narrows another', async () => {
    const s = setup();
    s.waiter.subscribe([blobs], () => {}, { held: () => [X] });
    s.waiter.subscribe([qa]);
    await s.handshake();
    const poll = s.feed.current;
    expect(poll.input.interest?.topics).toEqual([blobs]);
    s.waiter.subscribe([qa]);
    await flush();
    expect(poll.signal?.aborted).toBe(false);
    expect(s.feed.current).toBe(poll);
    expect(s.waiter.snapshot().reissues).toBe(0);
    // A new topic does.
    s.waiter.subscribe([nodes]);
    await flush();
    expect(poll.signal?.aborted).toBe(true);
    expect(s.waiter.snapshot().reissues).toBe(1);
  });
});
