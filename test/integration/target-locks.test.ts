// Writes name real targets, race-safe (server/rpc/targets.ts): every statement that writes
// under a target reads the target's row under a shared lock held until its transaction
// ends, so a delete of the target (which takes the row exclusively) cannot slip between
// the check and the write. Each statement runs here inside an open transaction, through
// the tier's own Sql (READ COMMITTED, as the tier runs it), and another connection then
// tries to take each target's row exclusively without waiting (NOWAIT): refused while
// the transaction is open, granted once it ends (so the probe itself can succeed).
// The tables are nearly empty on purpose: with a few rows the optimizer likes to scan the
// target table, the plan under which a join's rejected rows give their locks back.
// Then, end to end: a DeleteNode racing a write waits for it, and removes what it wrote.
import { randomUUID } from 'node:crypto';
import mysql from 'mysql2/promise';
import type { Connection } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, createPool } from '../../server/db/pool.js';
import type { Sql } from '../../server/db/sql.js';
import { Metrics } from '../../server/metrics.js';
import { upsertDaemonState, upsertDaemonStates } from '../../server/rpc/daemon-state/queries.js';
import { upsertHeartbeat, upsertHeartbeats } from '../../server/rpc/nodes/queries.js';
import { upsertAttributesIfRoom, upsertAttributesOfMany } from '../../server/rpc/objects/attribute-queries.js';
import { insertObject } from '../../server/rpc/objects/queries.js';
import { upsertState } from '../../server/rpc/objects/state-queries.js';
import { insertWorkItem } from '../../server/rpc/queue/queries.js';
import { lockTargets } from '../../server/rpc/targets.js';
import { newNode, newObject } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();
let database: Database;
let sql: Sql;
let probe: Connection;

/** A target row: a node, or an instance (object_values). */
type Row = { node: string } | { instance: string };

let nodeA = '';
let nodeB = '';
let instanceA = '';
let instanceB = '';

beforeAll(async () => {
  database = new Database(createPool({ url: t.databaseUrl, connectionLimit: 2 }), new Metrics('locks'));
  sql = database.sql('rpc');
  probe = await mysql.createConnection({ uri: t.databaseUrl });
  // Two of each: a batch that names both, one missing and one twice.
  nodeA = await newNode(db);
  nodeB = await newNode(db);
  instanceA = await newObject(db, 'Instance');
  instanceB = await newObject(db, 'Instance');
});
afterAll(async () => {
  await probe?.end();
  await database?.close();
});

/** Whether another transaction can take `row` exclusively right now (NOWAIT: it never waits). */
async function free(row: Row): Promise<boolean> {
  const [query, params] =
    'node' in row
      ? ['SELECT uuid FROM nodes WHERE uuid = ? FOR UPDATE NOWAIT', [row.node]]
      : ["SELECT uuid FROM object_values WHERE object_type = 'instance' AND uuid = ? FOR UPDATE NOWAIT", [row.instance]];
  await probe.query('BEGIN');
  try {
    await probe.query(query, params);
    return true;
  } catch (err) {
    // 1205: a lock wait that NOWAIT refused.
    if ((err as { errno?: number }).errno !== 1205) throw err;
    return false;
  } finally {
    await probe.query('ROLLBACK');
  }
}

const missing = randomUUID();
const pairs: [string, string][] = [['k', '1']];

const cases: [string, () => Row[], (tx: Sql) => Promise<unknown>][] = [
  ['NodeHeartbeat alone', () => [{ node: nodeA }], (tx) => upsertHeartbeat(tx, nodeA, '{}')],
  [
    'NodeHeartbeat batch',
    () => [{ node: nodeA }, { node: nodeB }],
    (tx) => upsertHeartbeats(tx, [nodeA, missing, nodeB, nodeA].map((n) => ({ nodeUuid: n, stats: '{}' }))),
  ],
  ['SetNodeDaemonState alone', () => [{ node: nodeA }], (tx) => upsertDaemonState(tx, { nodeUuid: nodeA, daemon: 'd', state: 'RUNNING', message: '' })],
  [
    'SetNodeDaemonState batch',
    () => [{ node: nodeA }, { node: nodeB }],
    (tx) => upsertDaemonStates(tx, [nodeB, missing, nodeA].map((n) => ({ nodeUuid: n, daemon: 'd', state: 'RUNNING', message: '' }))),
  ],
  ['SetObjectAttributes alone, a node', () => [{ node: nodeA }], (tx) => upsertAttributesIfRoom(tx, 'node', nodeA, pairs)],
  ['SetObjectAttributes alone, an object', () => [{ instance: instanceA }], (tx) => upsertAttributesIfRoom(tx, 'instance', instanceA, pairs)],
  [
    'SetObjectAttributes batch, nodes',
    () => [{ node: nodeA }, { node: nodeB }],
    (tx) => upsertAttributesOfMany(tx, true, [nodeA, missing, nodeB].map((uuid) => ({ type: 'node', uuid, pairs }))),
  ],
  [
    'SetObjectAttributes batch, objects',
    () => [{ instance: instanceA }, { instance: instanceB }],
    (tx) => upsertAttributesOfMany(tx, false, [instanceB, missing, instanceA].map((uuid) => ({ type: 'instance', uuid, pairs }))),
  ],
  ['SetObjectState, a node', () => [{ node: nodeA }], (tx) => upsertState(tx, { type: 'node', uuid: nodeA, state: 'CREATED', message: '' })],
  ['SetObjectState, an object', () => [{ instance: instanceA }], (tx) => upsertState(tx, { type: 'instance', uuid: instanceA, state: 'CREATED', message: '' })],
  [
    'Create<Type> placed on a node',
    () => [{ node: nodeA }],
    (tx) => insertObject(tx, { type: 'network', uuid: randomUUID(), namespace: '', nodeUuid: nodeA, staticValues: '{}', secretFields: '[]' }),
  ],
  ['Enqueue', () => [{ node: nodeA }], (tx) => insertWorkItem(tx, { id: randomUUID(), nodeUuid: nodeA, queue: 'q', payload: '{}', delayMs: 0 })],
  [
    'lockTargets (ReserveAddress, RecordReference, RecordEvents, CreateBlobTransfer)',
    () => [{ node: nodeA }, { instance: instanceA }, { node: nodeB }, { instance: instanceB }],
    (tx) =>
      lockTargets(tx, [
        { field: 'a', type: 'node', uuid: nodeA },
        { field: 'b', type: 'instance', uuid: instanceA },
        { field: 'c', type: 'node', uuid: nodeB },
        // The same uuid as another type: looked up in its own table only.
        { field: 'd', type: 'network', uuid: instanceA },
        { field: 'e', type: 'instance', uuid: instanceB },
      ]).catch(() => undefined),
  ],
];

describe('a write holds its targets under a shared lock until it commits', () => {
  it.each(cases)('%s', async (_name, rows, write) => {
    const held: boolean[] = [];
    await sql.transaction(async (tx) => {
      await write(tx);
      for (const row of rows()) held.push(!(await free(row)));
      // Rolled back: nothing of these writes stays.
      throw new RolledBack();
    }).catch((err: unknown) => {
      if (!(err instanceof RolledBack)) throw err;
    });
    expect(held).toEqual(rows().map(() => true));
    for (const row of rows()) expect(await free(row), JSON.stringify(row)).toBe(true);
  });
});

class RolledBack extends Error {}

describe('DeleteNode racing a write', () => {
  it('waits for the write to commit, then removes what it wrote: nothing of the node is left', async () => {
    const node = await newNode(db);
    let commit: () => void = () => undefined;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    // A heartbeat, its transaction held open after the write.
    const writing = sql.transaction(async (tx) => {
      await upsertHeartbeat(tx, node, '{"racing":true}');
      await committed;
    });
    // Until the heartbeat's row is written (its transaction holds the node's row shared).
    for (let i = 0; await free({ node }); i++) {
      if (i > 500) throw new Error('the heartbeat holds no lock on its node');
      await new Promise((r) => setTimeout(r, 10));
    }
    const deleting = db.deleteNode(node);
    // Until the delete is at MariaDB, waiting for that lock (the heartbeat holds it).
    const waiting = async (): Promise<boolean> => {
      const [rows] = await t.direct.query<mysql.RowDataPacket[]>(
        "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE command = 'Execute' AND info LIKE 'DELETE FROM nodes %'",
      );
      return Number(rows[0]?.['n']) > 0;
    };
    while (!(await waiting())) await new Promise((r) => setTimeout(r, 10));
    expect(await t.count('node_heartbeats', 'node_uuid = ?', [node])).toBe(0); // not committed yet
    commit();
    await writing;
    expect(await deleting).toBe(true);
    expect(await t.count('node_heartbeats', 'node_uuid = ?', [node])).toBe(0);
    expect(await t.count('nodes', 'uuid = ?', [node])).toBe(0);
  });
});
