// The simulator spread over processes (bench/cluster/sim-group.ts): every node in exactly
// one shard with its own instances, each keeping the replica it is pinned to in one
// process, the churn divided between the shards, every network in each.
import { describe, expect, it } from 'vitest';
import { shardConfig } from '../../bench/cluster/sim-group.js';
import { pinnedTarget } from '../../bench/cluster/sim/cluster.js';
import type { SimConfig } from '../../bench/cluster/protocol.js';

const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function cluster(nodes: number): SimConfig {
  return {
    mode: 'feed',
    targets: ['127.0.0.1:1', '127.0.0.1:2'],
    nodes: Array.from({ length: nodes }, (_, i) => ({ uuid: uuid(i), fqdn: `n${i}.example` })),
    instances: Array.from({ length: nodes * 2 }, (_, i) => ({ uuid: uuid(1000 + i), nodeUuid: uuid(i % nodes), networkUuid: uuid(9000), interfaceUuid: uuid(2000 + i) })),
    networks: [{ uuid: uuid(9000), ipamUuid: uuid(9001) }],
    pinned: true,
    churn: { instancesPerS: 1, staticPerS: 2, lifetimeMs: 60_000 },
  };
}

describe('shardConfig', () => {
  it('is the config itself for one process', () => {
    const c = cluster(5);
    expect(shardConfig(c, 1)).toEqual([c]);
  });

  it('puts every node in one shard with its instances, keeps each pinned replica, splits the churn', () => {
    const c = cluster(10);
    const shards = shardConfig(c, 4);
    expect(shards).toHaveLength(4);
    const nodes = shards.flatMap((s) => s.nodes.map((n) => n.uuid));
    expect(nodes.sort()).toEqual(c.nodes.map((n) => n.uuid).sort());
    for (const s of shards) {
      const mine = new Set(s.nodes.map((n) => n.uuid));
      expect(s.instances.every((i) => mine.has(i.nodeUuid))).toBe(true);
      expect(s.networks).toEqual(c.networks);
      expect(s.churn).toEqual({ instancesPerS: 0.25, staticPerS: 0.5, lifetimeMs: 60_000 });
      for (const n of s.nodes) expect(pinnedTarget(s, n.uuid)).toBe(pinnedTarget(c, n.uuid));
    }
    expect(shards.reduce((sum, s) => sum + s.instances.length, 0)).toBe(c.instances.length);
  });

  it('refuses a count that is not a positive integer', () => {
    expect(() => shardConfig(cluster(2), 0)).toThrow();
    expect(() => shardConfig(cluster(2), 1.5)).toThrow();
  });
});
