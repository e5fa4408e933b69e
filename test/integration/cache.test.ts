// The static-object cache against a real tier: RPCs counted on the tier's own
// database_requests_total, so "no RPC" means the tier never saw the call.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedCalls } from '../../client/api/changes.js';
import { ChangeWaiter } from '../../client/changes.js';
import { CACHED_TYPES, Conflict, StaticObjectCache, defaultStaticObjectCache } from '../../client/index.js';
import type { CachedType, DatabaseClient } from '../../client/index.js';
import { topics } from '../../proto/topics.js';
import { metricSum } from '../../harness/scrape.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

let t: TestTier;

beforeAll(async () => {
  t = await startTestTier();
});
afterAll(async () => {
  await t.stop();
});

/** RPCs the tier has received for `operation`, from any caller. */
async function served(operation: string): Promise<number> {
  return metricSum(await t.metrics(), 'database_requests_total', { operation });
}

/** RPCs of `operation` that the tier received while `fn` ran. */
async function rpcsDuring(operation: string, fn: () => Promise<unknown>): Promise<number> {
  const before = await served(operation);
  await fn();
  return (await served(operation)) - before;
}

/** A client with a cache of its own (so other tests' entries do not interfere). */
function cachedClient(options: ConstructorParameters<typeof StaticObjectCache>[0] = {}): DatabaseClient {
  return t.client({ cache: new StaticObjectCache(options) });
}

interface TypeCalls {
  get: string;
  create(uuid: string): Promise<unknown>;
  read(uuid: string): Promise<{ version: string; marker: unknown } | undefined>;
  /** Only the upgradeable types have one. */
  update?: (uuid: string) => Promise<unknown>;
  remove(uuid: string): Promise<boolean>;
}

/** Every cached type's client calls; a Record, so a type added to CACHED_TYPES must be added here. */
function typeCalls(db: DatabaseClient): Record<CachedType, TypeCalls> {
  const plain = (o: { version: string; staticValues: Record<string, unknown> } | undefined) => o && { version: o.version, marker: o.staticValues['v'] };
  const create = (fn: (input: { uuid: string; staticValues: object }) => Promise<unknown>) => (uuid: string) => fn({ uuid, staticValues: { v: 1 } });
  const update = (fn: (uuid: string, values: object) => Promise<unknown>) => (uuid: string) => fn(uuid, { v: 2 });
  return {
    INSTANCE: { get: 'GetInstance', create: create(db.createInstance), read: async (u) => plain(await db.getInstance(u)), remove: db.deleteInstance },
    NETWORK: { get: 'GetNetwork', create: create(db.createNetwork), read: async (u) => plain(await db.getNetwork(u)), remove: db.deleteNetwork },
    NETWORK_INTERFACE: {
      get: 'GetNetworkInterface',
      create: create(db.createNetworkInterface),
      read: async (u) => plain(await db.getNetworkInterface(u)),
      remove: db.deleteNetworkInterface,
    },
    IPAM: { get: 'GetIPAM', create: create(db.createIPAM), read: async (u) => plain(await db.getIPAM(u)), remove: db.deleteIPAM },
    AGENT_OPERATION: {
      get: 'GetAgentOperation',
      create: create(db.createAgentOperation),
      read: async (u) => plain(await db.getAgentOperation(u)),
      remove: db.deleteAgentOperation,
    },
    NODE: {
      get: 'GetNode',
      create: (uuid) => db.createNode({ uuid, fqdn: `n-${uuid}.example.com` }),
      read: async (u) => {
        const n = await db.getNode(u);
        return n && { version: n.version, marker: n.fqdn.startsWith('v2-') ? 2 : 1 };
      },
      update: (uuid) => db.updateNode(uuid, { fqdn: `v2-${uuid}.example.com` }),
      remove: db.deleteNode,
    },
    BLOB: { get: 'GetBlob', create: create(db.createBlob), read: async (u) => plain(await db.getBlob(u)), update: update(db.updateBlob), remove: db.deleteBlob },
    ARTIFACT: {
      get: 'GetArtifact',
      create: create(db.createArtifact),
      read: async (u) => plain(await db.getArtifact(u)),
      update: update(db.updateArtifact),
      remove: db.deleteArtifact,
    },
    UPLOAD: { get: 'GetUpload', create: create(db.createUpload), read: async (u) => plain(await db.getUpload(u)), update: update(db.updateUpload), remove: db.deleteUpload },
    NAMESPACE: {
      get: 'GetNamespace',
      create: create(db.createNamespace),
      read: async (u) => plain(await db.getNamespace(u)),
      update: update(db.updateNamespace),
      remove: db.deleteNamespace,
    },
  };
}

describe('static-object cache, through the tier', () => {
  it('answers a second Get of every cached type without an RPC; its update and delete evict', async () => {
    const db = cachedClient();
    const calls = typeCalls(db);
    // The cache joins the change feed with its first entry; what it held before the feed's
    // first cursor is dropped once (nothing covered it). Done here, before the counting.
    const first = randomUUID();
    await calls.INSTANCE.create(first);
    await calls.INSTANCE.read(first);
    await db.changes.ready();
    await new Promise((r) => setTimeout(r, 50));
    for (const type of Object.keys(CACHED_TYPES) as CachedType[]) {
      const c = calls[type];
      expect(c.update !== undefined, `${type}: an update exactly when upgradeable`).toBe(CACHED_TYPES[type] === 'upgradeable');
      const uuid = randomUUID();
      await c.create(uuid);
      expect(await rpcsDuring(c.get, () => c.read(uuid)), `${type} first get`).toBe(1);
      expect(await rpcsDuring(c.get, () => c.read(uuid)), `${type} second get`).toBe(0);
      expect(db.cache?.has(type, uuid)).toBe(true);

      if (c.update) {
        // The update's own change reaches the cache through the feed before, during or
        // after the re-read: whenever, it leaves the copy read after the update alone.
        await c.update(uuid);
        let seen: Awaited<ReturnType<TypeCalls['read']>>;
        expect(await rpcsDuring(c.get, async () => (seen = await c.read(uuid))), `${type} get after update`).toBe(1);
        expect(seen, type).toEqual({ version: '2', marker: 2 });
        expect(await rpcsDuring(c.get, () => c.read(uuid)), `${type} cached again`).toBe(0);
      }

      expect(await c.remove(uuid)).toBe(true);
      expect(db.cache?.has(type, uuid), type).toBe(false);
      let after: Awaited<ReturnType<TypeCalls['read']>>;
      expect(await rpcsDuring(c.get, async () => (after = await c.read(uuid))), `${type} get after delete`).toBe(1);
      expect(after, type).toBeUndefined();
    }
  });

  it('never caches "not found": an object created after a miss is seen at once', async () => {
    const db = cachedClient();
    const instance = randomUUID();
    const node = randomUUID();
    expect(await db.getInstance(instance)).toBeUndefined();
    expect(await db.getNode(node)).toBeUndefined();
    await db.createInstance({ uuid: instance, staticValues: { a: 1 } });
    await db.createNode({ uuid: node, fqdn: `miss-${node}.example.com` });
    expect((await db.getInstance(instance))?.staticValues).toEqual({ a: 1 });
    expect((await db.getNode(node))?.uuid).toBe(node);
    expect(await rpcsDuring('GetInstance', async () => db.getInstance(randomUUID()))).toBe(1);
  });

  it('answers frozen values', async () => {
    const db = cachedClient();
    const uuid = randomUUID();
    await db.createBlob({ uuid, staticValues: { nested: { a: [1] } } });
    const blob = await db.getBlob(uuid);
    expect(Object.isFrozen(blob)).toBe(true);
    expect(Object.isFrozen((blob?.staticValues['nested'] as { a: number[] }).a)).toBe(true);
    expect(await db.getBlob(uuid)).toBe(blob);
  });

  it('evicts on a failed update too: it may have been applied', async () => {
    const db = cachedClient();
    const uuid = randomUUID();
    await db.createArtifact({ uuid, staticValues: { v: 1 } });
    await db.getArtifact(uuid);
    await expect(db.updateArtifact(uuid, { v: 2 }, { expectedVersion: '7' })).rejects.toBeInstanceOf(Conflict);
    expect(await rpcsDuring('GetArtifact', () => db.getArtifact(uuid))).toBe(1);
  });

  it('with TTL 0 for a tier, every Get of its types goes to the tier; the other tier still caches', async () => {
    const db = cachedClient({ immutableTtlMs: 0 });
    const instance = randomUUID();
    const node = randomUUID();
    await db.createInstance({ uuid: instance, staticValues: {} });
    await db.createNode({ uuid: node, fqdn: `ttl0-${node}.example.com` });
    expect(await rpcsDuring('GetInstance', async () => Promise.all([db.getInstance(instance), db.getInstance(instance), db.getInstance(instance)]))).toBe(3);
    expect(await rpcsDuring('GetNode', async () => [await db.getNode(node), await db.getNode(node), await db.getNode(node)])).toBe(1);
  });

  it('never caches mutable reads: state, attributes, daemon state, leases, by-fqdn lookups', async () => {
    const db = cachedClient();
    const node = randomUUID();
    const fqdn = `mutable-${node}.example.com`;
    await db.createNode({ uuid: node, fqdn });
    await db.setObjectState('NODE', node, 'CREATED');
    await db.setObjectAttributes('NODE', node, { rack: 'r1' });
    await db.setNodeDaemonState(node, 'queues', 'RUNNING');
    const lease = `cache-test-${node}`;
    await db.acquireLease(lease, 'holder', 30_000);
    const twice = (fn: () => Promise<unknown>) => async () => {
      await fn();
      await fn();
    };
    expect(await rpcsDuring('GetObjectState', twice(() => db.getObjectState('NODE', node)))).toBe(2);
    expect(await rpcsDuring('GetObjectAttributes', twice(() => db.getObjectAttributes('NODE', node)))).toBe(2);
    expect(await rpcsDuring('GetNodeDaemonState', twice(() => db.getNodeDaemonState(node, 'queues')))).toBe(2);
    expect(await rpcsDuring('GetLease', twice(() => db.getLease(lease)))).toBe(2);
    expect(await rpcsDuring('GetNodeByFqdn', twice(() => db.getNodeByFqdn(fqdn)))).toBe(2);
    expect(db.cache?.size).toBe(0);
  });

  it('shares the process-wide cache among clients that pass none, so one client sees the other\'s delete', async () => {
    const a = t.client();
    const b = t.client();
    expect(a.cache).toBe(defaultStaticObjectCache());
    const uuid = randomUUID();
    await a.createNamespace({ uuid, staticValues: { n: 1 } });
    expect(await rpcsDuring('GetNamespace', async () => [await a.getNamespace(uuid), await b.getNamespace(uuid)])).toBe(1);
    await b.deleteNamespace(uuid);
    expect(await a.getNamespace(uuid)).toBeUndefined();
  });

  it('with cache: false, every Get goes to the tier', async () => {
    const db = t.client({ cache: false });
    const uuid = randomUUID();
    await db.createNetwork({ uuid, staticValues: {} });
    expect(await rpcsDuring('GetNetwork', async () => [await db.getNetwork(uuid), await db.getNetwork(uuid)])).toBe(2);
  });

  it("drops another process's update or delete through the change feed; with the feed off it keeps the copy", async () => {
    const reader = cachedClient();
    const unfed = t.client({ cache: new StaticObjectCache(), feed: false });
    const writer = t.client({ cache: false, feed: false });
    const [updated, deleted] = [randomUUID(), randomUUID()];
    for (const uuid of [updated, deleted]) await writer.createBlob({ uuid, staticValues: { v: 1 } });
    // Cached in both; the reader joins the feed with its first entry (and drops what it held before its first cursor).
    await reader.getBlob(updated);
    await reader.changes.ready();
    await until(() => reader.cache?.has('BLOB', updated) === false || reader.changes.mode === 'feed', 'the reader on the feed');
    for (const uuid of [updated, deleted]) {
      await reader.getBlob(uuid);
      await unfed.getBlob(uuid);
      expect(reader.cache?.has('BLOB', uuid)).toBe(true);
    }
    await writer.updateBlob(updated, { v: 2 });
    await writer.deleteBlob(deleted);
    await until(() => reader.cache?.has('BLOB', updated) === false && reader.cache.has('BLOB', deleted) === false, 'both evicted from the reader');
    expect((await reader.getBlob(updated))?.staticValues).toEqual({ v: 2 });
    expect(await reader.getBlob(deleted)).toBeUndefined();
    // The negative control: without the feed, another process's writes stay unseen until the TTL.
    expect(unfed.cache?.has('BLOB', updated)).toBe(true);
    expect((await unfed.getBlob(updated))?.staticValues).toEqual({ v: 1 });
  });
});

/**
 * A change waiter over `db`'s WaitForChanges whose answers wait while the gate is shut,
 * so that a test decides when the feed delivers a change (after a read, say).
 */
function gatedWaiter(db: DatabaseClient): { waiter: ChangeWaiter; shut(): void; open(): void } {
  let gate: Promise<void> = Promise.resolve();
  let release: () => void = () => undefined;
  const calls: FeedCalls = {
    async waitForChanges(input, opts) {
      const answer = await db.waitForChanges(input, opts);
      await gate;
      if (opts?.signal?.aborted) throw new Error('aborted'); // re-issued with the same cursor
      return answer;
    },
  };
  return {
    waiter: new ChangeWaiter(calls),
    shut: () => {
      gate = new Promise((r) => (release = r));
    },
    open: () => release(),
  };
}

/** A listener on `topic` of `waiter` resolving once a change of `id` (or a resync) was delivered; the cache, subscribed earlier, has heard it by then. */
function deliveredTo(waiter: ChangeWaiter, topic: string, id: string): Promise<void> {
  return new Promise((resolve) => {
    const sub = waiter.subscribe([topic], (batch) => {
      if (batch.resync || batch.changes.some((ch) => ch.id === id)) {
        sub.close();
        setImmediate(resolve);
      }
    });
  });
}

describe("the change of this process's own update", () => {
  /** A client whose cache hears the gated waiter (not db.changes), on the feed with its first entry. */
  async function gatedClient(): Promise<{ db: DatabaseClient; gated: ReturnType<typeof gatedWaiter> }> {
    const db = t.client({ cache: new StaticObjectCache(), feed: false });
    const gated = gatedWaiter(db);
    db.cache?.attachFeed(gated.waiter);
    expect(await gated.waiter.ready()).toBe('feed');
    return { db, gated };
  }

  it('delivered after a re-read that followed the update, leaves that copy: the next Get costs no RPC', async () => {
    const { db, gated } = await gatedClient();
    try {
      const uuid = randomUUID();
      await db.createBlob({ uuid, staticValues: { v: 1 } });
      await db.getBlob(uuid);
      gated.shut(); // the update's change waits at the gate
      const delivered = deliveredTo(gated.waiter, topics.staticValues('blob'), uuid);
      await db.updateBlob(uuid, { v: 2 });
      expect(await rpcsDuring('GetBlob', () => db.getBlob(uuid)), 'the re-read').toBe(1);
      gated.open();
      await delivered;
      expect(db.cache?.has('BLOB', uuid), 'kept after its own change').toBe(true);
      let seen: unknown;
      expect(await rpcsDuring('GetBlob', async () => (seen = (await db.getBlob(uuid))?.staticValues))).toBe(0);
      expect(seen).toEqual({ v: 2 });
    } finally {
      gated.waiter.close();
    }
  });

  it("does not shield the copy from a newer change: another process's later update still evicts it", async () => {
    const { db, gated } = await gatedClient();
    const other = t.client({ cache: false, feed: false });
    try {
      const uuid = randomUUID();
      await db.createNode({ uuid, fqdn: `own-${uuid}.example.com` });
      await db.getNode(uuid);
      gated.shut();
      await db.updateNode(uuid, { fqdn: `v2-${uuid}.example.com` });
      expect((await db.getNode(uuid))?.fqdn).toBe(`v2-${uuid}.example.com`); // read after its own update
      await other.updateNode(uuid, { fqdn: `v3-${uuid}.example.com` }); // then another process's
      gated.open();
      await until(() => db.cache?.has('NODE', uuid) === false, 'the copy evicted by the newer change');
      let seen: string | undefined;
      expect(await rpcsDuring('GetNode', async () => (seen = (await db.getNode(uuid))?.fqdn))).toBe(1);
      expect(seen).toBe(`v3-${uuid}.example.com`);
    } finally {
      gated.waiter.close();
    }
  });
});

/** Waits for `check` (local state only) to hold; fails after 10 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !check(); ) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 10 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
