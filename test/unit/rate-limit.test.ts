// Token buckets per caller node and per (node, daemon), on a fake clock.
import { describe, expect, it } from 'vitest';
import { CallerRateLimits, TokenBuckets, peerHost } from '../../server/grpc/rate-limit.js';

describe('token buckets', () => {
  it('grants the burst at once, then one call per 1/rate, with the wait as pushback', () => {
    const b = new TokenBuckets(10, 3);
    expect([b.take('n', 0), b.take('n', 0), b.take('n', 0)]).toEqual([0, 0, 0]);
    expect(b.take('n', 0)).toBe(100); // one token is 100 ms away at 10/s
    expect(b.take('n', 40)).toBe(60);
    expect(b.take('n', 100)).toBe(0);
    expect(b.take('other', 100)).toBe(0); // keys are independent
  });

  it('refills to the burst and no further', () => {
    const b = new TokenBuckets(10, 2);
    b.take('n', 0);
    b.take('n', 0);
    expect(b.take('n', 60_000)).toBe(0);
    expect(b.take('n', 60_000)).toBe(0);
    expect(b.take('n', 60_000)).toBeGreaterThan(0);
  });

  it('forgets full buckets when it holds too many: hostile keys cost no lasting memory', () => {
    const b = new TokenBuckets(10, 2, 100);
    for (let i = 0; i < 100; i++) b.take(`k${i}`, 0);
    expect(b.size).toBe(100);
    b.take('late', 10_000); // all earlier ones are full again by now
    expect(b.size).toBe(1);
  });
});

describe('caller rate limits', () => {
  const peer = { getPeer: () => 'ipv4:127.0.0.1:40000' };

  it('limits each daemon of a node, then the node as a whole', () => {
    let now = 0;
    const limits = new CallerRateLimits({ nodeRps: 10, nodeBurst: 3, daemonRps: 10, daemonBurst: 2 }, () => now);
    expect(limits.check('n1', 'queues', peer).refusedBy).toBeUndefined();
    expect(limits.check('n1', 'queues', peer).refusedBy).toBeUndefined();
    expect(limits.check('n1', 'queues', peer)).toEqual({ refusedBy: 'daemon', pushbackMs: 100 });
    // Another daemon of the node still has its own bucket, but the node has one token left.
    expect(limits.check('n1', 'net', peer).refusedBy).toBeUndefined();
    expect(limits.check('n1', 'net', peer).refusedBy).toBe('node');
    // A node's refusal gives the daemon's token back: after 100 ms net may call once more.
    now = 100;
    expect(limits.check('n1', 'net', peer).refusedBy).toBeUndefined();
    // Another node is not affected.
    expect(limits.check('n2', 'queues', peer).refusedBy).toBeUndefined();
  });

  it('a caller without a node claim is limited by its peer host, whatever its port', () => {
    const limits = new CallerRateLimits({ nodeRps: 1, nodeBurst: 1, daemonRps: 0, daemonBurst: 1 }, () => 0);
    expect(limits.check('', 'x', { getPeer: () => 'ipv4:10.0.0.5:1111' }).refusedBy).toBeUndefined();
    expect(limits.check('', 'y', { getPeer: () => 'ipv4:10.0.0.5:2222' }).refusedBy).toBe('node');
    expect(limits.check('', 'x', { getPeer: () => 'ipv4:10.0.0.6:1111' }).refusedBy).toBeUndefined();
  });

  it('rate 0 means no limit', () => {
    const limits = new CallerRateLimits({ nodeRps: 0, nodeBurst: 1, daemonRps: 0, daemonBurst: 1 }, () => 0);
    for (let i = 0; i < 1000; i++) expect(limits.check('n', 'd', peer).refusedBy).toBeUndefined();
  });

  it('reads the host out of grpc-js peer strings', () => {
    expect(peerHost('ipv4:127.0.0.1:5000')).toBe('127.0.0.1');
    expect(peerHost('ipv6:[::1]:5000')).toBe('::1');
    expect(peerHost('unix:/tmp/sock')).toBe('/tmp/sock');
  });
});
