// The soak's call mix: what one scheduled call does. Normal calls (point reads, writes)
// must succeed; the others are made to fail in one way each — refused by the tier
// (INVALID_ARGUMENT), cancelled by the client (AbortSignal) or past their deadline — the
// paths that once left the tier's in-flight gauge raised.
import { randomUUID } from 'node:crypto';
import type { DatabaseClient, ObjectState } from '../../client/index.js';
import { topics } from '../../proto/topics.js';
import { QUEUE } from './seed.js';
import type { Seeded } from './seed.js';

/** How a call's ending is judged: see load.ts. */
export type CallKind = 'normal' | 'cached' | 'invalid' | 'cancel' | 'deadline';

export interface MixContext {
  /** Clients without a cache, one channel each. */
  readonly clients: readonly DatabaseClient[];
  /** A client reading through its own static-object cache (no feed: entries live by TTL). */
  readonly cached: DatabaseClient;
  readonly seeded: Seeded;
  /** A recent change-feed cursor (for long-polls that must be held, not answered at once). */
  cursor(): string;
  /** Times one RPC of a normal call; its latency counts in the interval's percentiles. */
  time<T>(call: () => Promise<T>): Promise<T>;
}

export interface MixEntry {
  name: string;
  kind: CallKind;
  weight: number;
  run(ctx: MixContext): Promise<unknown>;
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

function client(ctx: MixContext): DatabaseClient {
  return pick(ctx.clients);
}

/** Aborts after `ms` (0: on the next turn of the event loop, after the call was sent or not). */
function abortAfter(ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  return controller.signal;
}

/** A topic nobody writes in the soak: a long-poll on it is held until it times out. */
const QUIET_TOPIC = topics.clusterConfig();
const STATES: readonly ObjectState[] = ['CREATED', 'CREATING'];

async function dequeueAndResolve(ctx: MixContext): Promise<void> {
  const db = client(ctx);
  const node = pick(ctx.seeded.nodes);
  const claims = await ctx.time(() => db.dequeue({ nodeUuid: node, queues: [QUEUE], limit: 4, leaseMs: 30_000, holder: 'soak' }));
  await Promise.all(claims.map((c) => ctx.time(() => db.resolve(c.item.id, c.epoch, 'SUCCEEDED', { by: 'soak' }))));
}

/** Weights are relative; at --rate 300 a weight of 1 is about 3 calls/s. */
export const MIX: readonly MixEntry[] = [
  // Point reads through the cache (mostly hits: no RPC) and without it.
  { name: 'GetNode (cached)', kind: 'cached', weight: 12, run: (ctx) => ctx.cached.getNode(pick(ctx.seeded.nodes)) },
  { name: 'GetInstance (cached)', kind: 'cached', weight: 12, run: (ctx) => ctx.cached.getInstance(pick(ctx.seeded.instances).uuid) },
  { name: 'GetNode', kind: 'normal', weight: 12, run: (ctx) => ctx.time(() => client(ctx).getNode(pick(ctx.seeded.nodes))) },
  { name: 'GetInstance', kind: 'normal', weight: 12, run: (ctx) => ctx.time(() => client(ctx).getInstance(pick(ctx.seeded.instances).uuid)) },
  {
    name: 'GetObjectState',
    kind: 'normal',
    weight: 5,
    run: (ctx) => ctx.time(() => client(ctx).getObjectState('INSTANCE', pick(ctx.seeded.instances).uuid)),
  },
  // Writes; SetObjectState and Enqueue publish changes that wake the long-polls.
  {
    name: 'NodeHeartbeat',
    kind: 'normal',
    weight: 10,
    run: (ctx) => ctx.time(() => client(ctx).nodeHeartbeat(pick(ctx.seeded.nodes), { load: Math.random(), soak: true })),
  },
  {
    name: 'SetObjectState',
    kind: 'normal',
    weight: 8,
    run: (ctx) => ctx.time(() => client(ctx).setObjectState('INSTANCE', pick(ctx.seeded.instances).uuid, pick(STATES), 'soak')),
  },
  {
    name: 'Enqueue',
    kind: 'normal',
    weight: 8,
    run: (ctx) => ctx.time(() => client(ctx).enqueue({ id: randomUUID(), nodeUuid: pick(ctx.seeded.nodes), queue: QUEUE, payload: { task: 'soak' } })),
  },
  { name: 'Dequeue+Resolve', kind: 'normal', weight: 8, run: dequeueAndResolve },
  {
    name: 'RecordEvents',
    kind: 'normal',
    weight: 5,
    run: (ctx) => {
      const inst = pick(ctx.seeded.instances);
      const events = Array.from({ length: 5 }, (_, i) => ({ objectType: 'INSTANCE' as const, objectUuid: inst.uuid, eventType: 'soak', message: `event ${i}` }));
      return ctx.time(() => client(ctx).recordEvents(events));
    },
  },
  // Refused by the tier: INVALID_ARGUMENT, nothing written.
  { name: 'GetNode (bad uuid)', kind: 'invalid', weight: 1, run: (ctx) => client(ctx).call('GetNode', { uuid: 'NOT-A-UUID' }) },
  {
    name: 'Enqueue (bad queue)',
    kind: 'invalid',
    weight: 1,
    run: (ctx) => client(ctx).enqueue({ id: randomUUID(), nodeUuid: pick(ctx.seeded.nodes), queue: 'Bad Queue!', payload: {} }),
  },
  {
    name: 'SetObjectState (no state)',
    kind: 'invalid',
    weight: 1,
    run: (ctx) => client(ctx).call('SetObjectState', { objectType: 'INSTANCE', uuid: pick(ctx.seeded.instances).uuid, state: 'OBJECT_STATE_UNSPECIFIED', message: '' }),
  },
  { name: 'WaitForChanges (no topics)', kind: 'invalid', weight: 1, run: (ctx) => client(ctx).waitForChanges({ topics: [], cursor: ctx.cursor() }) },
  // Cancelled by the client while the tier holds or runs them.
  {
    name: 'WaitForChanges (cancelled)',
    kind: 'cancel',
    weight: 2,
    run: (ctx) => client(ctx).waitForChanges({ topics: [QUIET_TOPIC], cursor: ctx.cursor(), timeoutMs: 10_000 }, { signal: abortAfter(20 + Math.random() * 180) }),
  },
  { name: 'GetNode (cancelled)', kind: 'cancel', weight: 1, run: (ctx) => client(ctx).getNode(pick(ctx.seeded.nodes), { signal: abortAfter(Math.random() < 0.5 ? 0 : 1) }) },
  {
    name: 'Enqueue (cancelled)',
    kind: 'cancel',
    weight: 1,
    run: (ctx) => client(ctx).enqueue({ id: randomUUID(), nodeUuid: pick(ctx.seeded.nodes), queue: QUEUE, payload: { task: 'soak' } }, { signal: abortAfter(1) }),
  },
  // Their deadline passes: in the tier (a held long-poll) or around the wire (1–2 ms).
  {
    name: 'WaitForChanges (deadline)',
    kind: 'deadline',
    weight: 2,
    run: (ctx) => client(ctx).waitForChanges({ topics: [QUIET_TOPIC], cursor: ctx.cursor(), timeoutMs: 10_000 }, { deadlineMs: 50 + Math.random() * 250 }),
  },
  { name: 'GetInstance (deadline)', kind: 'deadline', weight: 1, run: (ctx) => client(ctx).getInstance(pick(ctx.seeded.instances).uuid, { deadlineMs: 1 + Math.floor(Math.random() * 2) }) },
  {
    name: 'ListObjectsByState (deadline)',
    kind: 'deadline',
    weight: 1,
    run: (ctx) => client(ctx).listObjectsByState({ objectType: 'INSTANCE', state: 'CREATED', pageSize: 100 }, { deadlineMs: 2 }),
  },
];

/** Picks an entry by weight. */
export function chooser(mix: readonly MixEntry[]): () => MixEntry {
  const total = mix.reduce((s, e) => s + e.weight, 0);
  return () => {
    let r = Math.random() * total;
    for (const e of mix) {
      r -= e.weight;
      if (r < 0) return e;
    }
    return mix[mix.length - 1] as MixEntry;
  };
}
