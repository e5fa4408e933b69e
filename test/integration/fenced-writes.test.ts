// Fenced application writes (docs/contract.md, "Fenced writes"), against real MariaDB, one
// case per fenceable RPC: with the live lease the write lands; with a stale token, another
// holder or an expired lease it answers Fenced and nothing of it is in the tables; a bad
// fence is INVALID_ARGUMENT naming the field, nothing written. Each attempt writes values
// of its own (`n`), so "landed" reads that attempt's rows, not an earlier one's.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Fenced, InvalidArgument } from '../../client/index.js';
import type { DatabaseClient, FencedCallOptions, LeaseFence } from '../../client/index.js';
import { newNode, newObject } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();

interface Case {
  /** The RPC this case writes through. */
  rpc: string;
  /** Creates what the write names; answers the case's state. */
  setup: (db: DatabaseClient) => Promise<Record<string, string>>;
  /** Attempt `n` of the write, with `opts` (the fence). */
  write: (db: DatabaseClient, s: Record<string, string>, n: number, opts: FencedCallOptions) => Promise<unknown>;
  /** Whether attempt `n`'s effect is in the tables (read directly). */
  landed: (t: TestTier, s: Record<string, string>, n: number) => Promise<boolean>;
}

const has = async (t: TestTier, table: string, where: string, params: unknown[]): Promise<boolean> => (await t.count(table, where, params)) > 0;
const ip = (n: number): string => `10.9.${Math.floor(n / 250)}.${(n % 250) + 1}`;

const cases: Case[] = [
  {
    rpc: 'SetObjectState',
    setup: async (db) => ({ uuid: await newObject(db, 'Instance') }),
    write: (db, s, n, o) => db.setObjectState('INSTANCE', s['uuid'] as string, 'CREATING', `m${n}`, o),
    landed: (t, s, n) => has(t, 'object_states', 'uuid = ? AND message = ?', [s['uuid'], `m${n}`]),
  },
  {
    rpc: 'DeleteObjectState',
    setup: async (db) => {
      const uuid = await newObject(db, 'Instance');
      await db.setObjectState('INSTANCE', uuid, 'CREATED');
      return { uuid };
    },
    write: (db, s, _n, o) => db.deleteObjectState('INSTANCE', s['uuid'] as string, o),
    landed: async (t, s) => !(await has(t, 'object_states', 'uuid = ?', [s['uuid']])),
  },
  {
    rpc: 'SetObjectAttributes',
    setup: async (db) => ({ uuid: await newObject(db, 'Instance') }),
    write: (db, s, n, o) => db.setObjectAttributes('INSTANCE', s['uuid'] as string, { [`k${n}`]: n }, o),
    landed: (t, s, n) => has(t, 'object_attributes', 'uuid = ? AND attr_key = ?', [s['uuid'], `k${n}`]),
  },
  {
    rpc: 'DeleteObjectAttributes',
    setup: async (db) => {
      const uuid = await newObject(db, 'Instance');
      await db.setObjectAttributes('INSTANCE', uuid, { gone: true });
      return { uuid };
    },
    write: (db, s, _n, o) => db.deleteObjectAttributes('INSTANCE', s['uuid'] as string, ['gone'], o),
    landed: async (t, s) => !(await has(t, 'object_attributes', 'uuid = ?', [s['uuid']])),
  },
  {
    // Placed nowhere: today one auto-commit INSERT; fenced, a transaction of its own.
    rpc: 'CreateInstance (unplaced)',
    setup: async () => ({ prefix: randomUUID().slice(0, 24) }),
    write: (db, s, n, o) => db.createInstance({ uuid: `${s['prefix']}${String(n).padStart(12, '0')}`, staticValues: {} }, o),
    landed: (t, s, n) => has(t, 'object_values', 'uuid = ?', [`${s['prefix']}${String(n).padStart(12, '0')}`]),
  },
  {
    rpc: 'CreateNetworkInterface (on a node)',
    setup: async (db) => ({ node: await newNode(db), prefix: randomUUID().slice(0, 24) }),
    write: (db, s, n, o) =>
      db.createNetworkInterface({ uuid: `${s['prefix']}${String(n).padStart(12, '0')}`, nodeUuid: s['node'] as string, staticValues: {} }, o),
    landed: (t, s, n) => has(t, 'object_values', 'uuid = ?', [`${s['prefix']}${String(n).padStart(12, '0')}`]),
  },
  {
    rpc: 'UpdateBlob',
    setup: async (db) => ({ uuid: await newObject(db, 'Blob') }),
    write: (db, s, n, o) => db.updateBlob(s['uuid'] as string, { n }, o),
    landed: (t, s, n) => has(t, 'object_values', 'uuid = ? AND JSON_VALUE(static_values, "$.n") = ?', [s['uuid'], n]),
  },
  {
    rpc: 'DeleteInstance',
    setup: async (db) => ({ uuid: await newObject(db, 'Instance') }),
    write: (db, s, _n, o) => db.deleteInstance(s['uuid'] as string, o),
    landed: async (t, s) => !(await has(t, 'object_values', 'uuid = ?', [s['uuid']])),
  },
  {
    rpc: 'ReserveAddress',
    setup: async (db) => ({ ipam: await newObject(db, 'IPAM'), owner: await newObject(db, 'NetworkInterface') }),
    write: (db, s, n, o) =>
      db.reserveAddress({ ipamUuid: s['ipam'] as string, address: ip(n), ownerType: 'NETWORK_INTERFACE', ownerUuid: s['owner'] as string }, o),
    landed: (t, s, n) => has(t, 'ipam_reservations', 'ipam_uuid = ? AND address = ?', [s['ipam'], ip(n)]),
  },
  {
    rpc: 'ReleaseAddress',
    setup: async (db) => {
      const s = { ipam: await newObject(db, 'IPAM'), owner: await newObject(db, 'NetworkInterface') };
      await db.reserveAddress({ ipamUuid: s.ipam, address: '10.8.0.1', ownerType: 'NETWORK_INTERFACE', ownerUuid: s.owner });
      return s;
    },
    write: (db, s, _n, o) => db.releaseAddress(s['ipam'] as string, '10.8.0.1', o),
    landed: async (t, s) => !(await has(t, 'ipam_reservations', 'ipam_uuid = ?', [s['ipam']])),
  },
  {
    rpc: 'RecordReference',
    setup: async (db) => ({ from: await newObject(db, 'NetworkInterface'), to: await newObject(db, 'Network') }),
    write: (db, s, n, o) =>
      db.recordReference({ fromType: 'NETWORK_INTERFACE', fromUuid: s['from'] as string, toType: 'NETWORK', toUuid: s['to'] as string, relation: `r${n}` }, o),
    landed: (t, s, n) => has(t, 'object_references', 'from_uuid = ? AND relation = ?', [s['from'], `r${n}`]),
  },
  {
    rpc: 'RemoveReference',
    setup: async (db) => {
      const s = { from: await newObject(db, 'NetworkInterface'), to: await newObject(db, 'Network') };
      await db.recordReference({ fromType: 'NETWORK_INTERFACE', fromUuid: s.from, toType: 'NETWORK', toUuid: s.to, relation: 'on' });
      return s;
    },
    write: (db, s, _n, o) =>
      db.removeReference({ fromType: 'NETWORK_INTERFACE', fromUuid: s['from'] as string, toType: 'NETWORK', toUuid: s['to'] as string, relation: 'on' }, o),
    landed: async (t, s) => !(await has(t, 'object_references', 'from_uuid = ?', [s['from']])),
  },
  {
    rpc: 'SetClusterConfig',
    setup: async () => ({ key: `fence.${randomUUID().slice(0, 8)}` }),
    write: (db, s, n, o) => db.setClusterConfig(`${s['key']}.k${n}`, n, o),
    landed: (t, s, n) => has(t, 'cluster_config', 'config_key = ?', [`${s['key']}.k${n}`]),
  },
  {
    rpc: 'Enqueue',
    setup: async (db) => ({ node: await newNode(db), prefix: randomUUID().slice(0, 24) }),
    write: (db, s, n, o) => db.enqueue({ id: `${s['prefix']}${String(n).padStart(12, '0')}`, nodeUuid: s['node'] as string, queue: 'jobs' }, o),
    landed: (t, s, n) => has(t, 'work_items', 'id = ?', [`${s['prefix']}${String(n).padStart(12, '0')}`]),
  },
  {
    rpc: 'CreateBlobTransfer',
    setup: async (db) => ({ blob: await newObject(db, 'Blob'), node: await newNode(db), prefix: randomUUID().slice(0, 24) }),
    write: (db, s, n, o) =>
      db.createBlobTransfer({ id: `${s['prefix']}${String(n).padStart(12, '0')}`, blobUuid: s['blob'] as string, nodeUuid: s['node'] as string }, o),
    landed: (t, s, n) => has(t, 'blob_transfers', 'id = ?', [`${s['prefix']}${String(n).padStart(12, '0')}`]),
  },
  {
    rpc: 'UpdateBlobTransfer',
    setup: async (db) => {
      const id = randomUUID();
      await db.createBlobTransfer({ id, blobUuid: await newObject(db, 'Blob'), nodeUuid: await newNode(db) });
      return { id };
    },
    write: (db, s, n, o) => db.updateBlobTransfer(s['id'] as string, { state: 'TRANSFER_RUNNING', message: `m${n}` }, o),
    landed: (t, s, n) => has(t, 'blob_transfers', 'id = ? AND message = ?', [s['id'], `m${n}`]),
  },
];

/** The lease `name` held by `holder`: its fence. */
async function hold(name: string, holder: string): Promise<LeaseFence> {
  const r = await db.acquireLease(name, holder, 60_000);
  if (!r.acquired) throw new Error(`${holder} did not acquire ${name}: held by ${r.lease.holder}`);
  return { name, holder, token: r.lease.token };
}

async function refusedWith(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    (v) => {
      throw new Error(`expected a refusal, got ${JSON.stringify(v)}`);
    },
    (err: unknown) => err,
  );
}

describe('fenced writes', () => {
  it.each(cases.map((c) => [c.rpc, c] as const))('%s: written under the live lease, refused and not written otherwise', async (_rpc, c) => {
    const name = `fence-test/${randomUUID().slice(0, 8)}`;
    const s = await c.setup(db);
    let n = 0;
    const refused = async (opts: FencedCallOptions, kind: typeof Fenced | typeof InvalidArgument): Promise<unknown> => {
      n += 1;
      const err = await refusedWith(c.write(db, s, n, opts));
      expect(err, `attempt ${n}`).toBeInstanceOf(kind);
      expect(await c.landed(t, s, n), `attempt ${n} landed`).toBe(false);
      return err;
    };

    const live = await hold(name, 'job-a');
    // A stale token (the holder's own, one behind or ahead) and another holder.
    await refused({ fence: { ...live, token: String(BigInt(live.token) + 1n) } }, Fenced);
    await refused({ fence: { ...live, holder: 'job-b' } }, Fenced);
    await refused({ fence: { ...live, name: `${name}-other` } }, Fenced);
    // Bad fences name their field.
    for (const [fence, field] of [
      [{ ...live, token: '0' }, 'fence.token'],
      [{ ...live, holder: '' }, 'fence.holder'],
      [{ ...live, name: 'Not A Lease' }, 'fence.name'],
    ] as const) {
      expect(((await refused({ fence }, InvalidArgument)) as InvalidArgument).field).toBe(field);
    }
    // The lease ran out (by database time): refused though nobody took it yet.
    await t.direct.query('UPDATE leases SET expires_at = UTC_TIMESTAMP(6) - INTERVAL 1 SECOND WHERE name = ?', [name]);
    await refused({ fence: live }, Fenced);
    // Taken over by another: the deposed holder's token is refused.
    const other = await hold(name, 'job-b');
    expect(BigInt(other.token)).toBeGreaterThan(BigInt(live.token));
    await refused({ fence: live }, Fenced);

    // The live holder's write lands.
    n += 1;
    await c.write(db, s, n, { fence: other });
    expect(await c.landed(t, s, n)).toBe(true);
  });

  it('an unfenced SetObjectAttributes still goes through group commit; a fenced one runs alone', async () => {
    const uuid = await newObject(db, 'Instance');
    const fence = await hold(`fence-test/${randomUUID().slice(0, 8)}`, 'job-a');
    const batches = async (): Promise<number> => {
      const m = /database_group_commit_batch_calls_count\{[^}]*kind="object_attributes"[^}]*\} (\d+)/.exec(await t.metrics());
      return Number(m?.[1] ?? 0);
    };
    const before = await batches();
    await db.setObjectAttributes('INSTANCE', uuid, { plain: 1 });
    const afterPlain = await batches();
    await db.setObjectAttributes('INSTANCE', uuid, { fenced: 1 }, { fence });
    expect(afterPlain).toBe(before + 1);
    expect(await batches()).toBe(afterPlain);
    expect(await t.count('object_attributes', 'uuid = ?', [uuid])).toBe(2);
  });
});
