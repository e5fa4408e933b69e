// The ledger against MariaDB itself (a mysql2 connection of its own, not the tier): every
// acknowledged write must be there, once. What "there" means per kind:
// - node: one row with its uuid and fqdn;
// - enqueue: exactly one work item with its id, node, queue and payload;
// - claim: the item's epoch is at least the acknowledged one (epochs never go back);
// - resolve: the item is finished with that outcome at that epoch (finished items never change);
// - config: the key's version is at least the highest acknowledged, and at that version the value is the acknowledged one;
// - lease: the lease's token is at least the highest acknowledged;
// - heartbeat, daemon_state, attribute (group-committed): the node's row holds the highest
//   acknowledged n of its writer, or a later one.
// Every property only grows over time, so a check while the load runs is as good as one after it.
// And the other way round (findLateEffects): a write whose call failed may have taken
// effect — it was not acknowledged — but not after its call's deadline had passed, when
// the tier stops a call's statements (server/db/watchdog.ts).
import mysql from 'mysql2/promise';
import type { Connection } from 'mysql2/promise';
import type { Ack, AttributeAck, ConfigAck, DaemonStateAck, Failure, HeartbeatAck, LeaseAck } from './ledger.js';

export interface LostWrite {
  kind: Ack['kind'];
  /** The id, key or lease name, with the epoch/version/token where it matters. */
  what: string;
  why: string;
  phase: string;
  ackAt: number;
}

const CHUNK = 500;

async function rowsFor<R>(conn: Connection, sql: (placeholders: string) => string, ids: readonly string[]): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK);
    const [rows] = await conn.query(sql(part.map(() => '?').join(', ')), part);
    out.push(...(rows as R[]));
  }
  return out;
}

/** JSON text in one canonical form (MariaDB may re-space what it stores). */
function canonical(text: string): string {
  return JSON.stringify(JSON.parse(text) as unknown);
}

const big = (s: string): bigint => BigInt(s);

export async function openDirect(databaseUrl: string): Promise<Connection> {
  return mysql.createConnection({ uri: databaseUrl, supportBigNumbers: true, bigNumberStrings: true, dateStrings: true, jsonStrings: true });
}

/** The acknowledged writes in `acks` that MariaDB does not hold. */
export async function findLostWrites(conn: Connection, acks: readonly Ack[]): Promise<LostWrite[]> {
  const lost: LostWrite[] = [];
  const miss = (a: Ack, what: string, why: string): void => {
    lost.push({ kind: a.kind, what, why, phase: a.phase, ackAt: a.ackAt });
  };

  const nodes = acks.filter((a) => a.kind === 'node');
  const nodeRows = await rowsFor<{ uuid: string; fqdn: string }>(conn, (p) => `SELECT uuid, fqdn FROM nodes WHERE uuid IN (${p})`, nodes.map((n) => n.uuid));
  const nodeByUuid = new Map(nodeRows.map((r) => [r.uuid, r]));
  for (const n of nodes) {
    const row = nodeByUuid.get(n.uuid);
    if (!row) miss(n, n.uuid, 'no node row');
    else if (row.fqdn !== n.fqdn) miss(n, n.uuid, `fqdn ${row.fqdn}, acknowledged ${n.fqdn}`);
  }

  const itemIds = [...new Set(acks.flatMap((a) => (a.kind === 'enqueue' || a.kind === 'claim' || a.kind === 'resolve' ? [a.id] : [])))];
  const itemRows = await rowsFor<{ id: string; node_uuid: string; queue: string; payload: string; state: string; epoch: string }>(
    conn,
    (p) => `SELECT id, node_uuid, queue, payload, state, epoch FROM work_items WHERE id IN (${p})`,
    itemIds,
  );
  const items = new Map<string, (typeof itemRows)[number][]>();
  for (const r of itemRows) items.set(r.id, [...(items.get(r.id) ?? []), r]);
  for (const a of acks) {
    if (a.kind !== 'enqueue' && a.kind !== 'claim' && a.kind !== 'resolve') continue;
    const rows = items.get(a.id) ?? [];
    const row = rows[0];
    if (rows.length > 1) miss(a, a.id, `${rows.length} work items with this id`);
    if (!row) {
      miss(a, a.id, 'no work item');
      continue;
    }
    if (a.kind === 'enqueue') {
      if (row.node_uuid !== a.nodeUuid || row.queue !== a.queue || canonical(row.payload) !== canonical(a.payload)) miss(a, a.id, 'work item with other node, queue or payload');
    } else if (a.kind === 'claim') {
      if (big(row.epoch) < big(a.epoch)) miss(a, `${a.id}@${a.epoch}`, `epoch went back to ${row.epoch}`);
    } else if (row.state !== a.outcome || row.epoch !== a.epoch) {
      miss(a, `${a.id}@${a.epoch}`, `item is ${row.state} at epoch ${row.epoch}, acknowledged ${a.outcome} at ${a.epoch}`);
    }
  }

  const configs = acks.filter((a): a is ConfigAck => a.kind === 'config');
  const highest = new Map<string, ConfigAck>();
  for (const c of configs) {
    const h = highest.get(c.key);
    if (!h || big(c.version) > big(h.version)) highest.set(c.key, c);
  }
  const configRows = await rowsFor<{ config_key: string; value: string; version: string }>(
    conn,
    (p) => `SELECT config_key, value, version FROM cluster_config WHERE config_key IN (${p})`,
    [...highest.keys()],
  );
  const configByKey = new Map(configRows.map((r) => [r.config_key, r]));
  for (const [key, c] of highest) {
    const row = configByKey.get(key);
    if (!row) miss(c, key, 'no config row');
    else if (big(row.version) < big(c.version)) miss(c, `${key}@${c.version}`, `version went back to ${row.version}`);
    else if (row.version === c.version && canonical(row.value) !== canonical(c.value)) miss(c, `${key}@${c.version}`, `value ${row.value}, acknowledged ${c.value}`);
  }

  await findLostPeriodic(conn, acks, miss);

  const leases = acks.filter((a): a is LeaseAck => a.kind === 'lease');
  const topToken = new Map<string, LeaseAck>();
  for (const l of leases) {
    const t = topToken.get(l.name);
    if (!t || big(l.token) > big(t.token)) topToken.set(l.name, l);
  }
  const leaseRows = await rowsFor<{ name: string; token: string }>(conn, (p) => `SELECT name, token FROM leases WHERE name IN (${p})`, [...topToken.keys()]);
  const leaseByName = new Map(leaseRows.map((r) => [r.name, r]));
  for (const [name, l] of topToken) {
    const row = leaseByName.get(name);
    if (!row) miss(l, name, 'no lease row');
    else if (big(row.token) < big(l.token)) miss(l, `${name}@${l.token}`, `token went back to ${row.token}`);
  }
  return lost;
}

/** The highest acknowledged n per key of the acks of `kind` (a loop writes its own rows, in order). */
function highestN<A extends HeartbeatAck | DaemonStateAck | AttributeAck>(acks: readonly Ack[], kind: A['kind'], key: (a: A) => string): Map<string, A> {
  const top = new Map<string, A>();
  for (const a of acks) {
    if (a.kind !== kind) continue;
    const x = a as A;
    const t = top.get(key(x));
    if (!t || x.n > t.n) top.set(key(x), x);
  }
  return top;
}

/**
 * The group-committed writes: a node's heartbeat stats, its daemon state's message and its
 * attribute `seq` must hold the highest acknowledged n or a later one.
 */
async function findLostPeriodic(conn: Connection, acks: readonly Ack[], miss: (a: Ack, what: string, why: string) => void): Promise<void> {
  const beats = highestN<HeartbeatAck>(acks, 'heartbeat', (a) => a.node);
  const beatRows = await rowsFor<{ node_uuid: string; stats: string }>(conn, (p) => `SELECT node_uuid, stats FROM node_heartbeats WHERE node_uuid IN (${p})`, [...beats.keys()]);
  const beatOf = new Map(beatRows.map((r) => [r.node_uuid, Number((JSON.parse(r.stats) as { n?: number }).n ?? -1)]));
  for (const [node, a] of beats) {
    const n = beatOf.get(node);
    if (n === undefined) miss(a, node, 'no heartbeat row');
    else if (n < a.n) miss(a, `${node}@${a.n}`, `heartbeat went back to ${n}`);
  }
  const states = highestN<DaemonStateAck>(acks, 'daemon_state', (a) => a.node);
  const stateRows = await rowsFor<{ node_uuid: string; message: string }>(
    conn,
    (p) => `SELECT node_uuid, message FROM node_daemon_states WHERE daemon = 'faults' AND node_uuid IN (${p})`,
    [...states.keys()],
  );
  const stateOf = new Map(stateRows.map((r) => [r.node_uuid, Number(r.message)]));
  for (const [node, a] of states) {
    const n = stateOf.get(node);
    if (n === undefined) miss(a, node, 'no daemon state row');
    else if (n < a.n) miss(a, `${node}@${a.n}`, `daemon state went back to ${n}`);
  }
  const attrs = highestN<AttributeAck>(acks, 'attribute', (a) => a.node);
  const attrRows = await rowsFor<{ uuid: string; value: string }>(
    conn,
    (p) => `SELECT uuid, value FROM object_attributes WHERE object_type = 'node' AND attr_key = 'seq' AND uuid IN (${p})`,
    [...attrs.keys()],
  );
  const attrOf = new Map(attrRows.map((r) => [r.uuid, Number(JSON.parse(r.value) as number)]));
  for (const [node, a] of attrs) {
    const n = attrOf.get(node);
    if (n === undefined) miss(a, node, 'no attribute row');
    else if (n < a.n) miss(a, `${node}@${a.n}`, `attribute went back to ${n}`);
  }
}

export interface LateEffect {
  method: string;
  id: string;
  phase: string;
  /** How long after its call's deadline the write took effect (ms, database clock = this machine's). */
  lateMs: number;
}

/** DATETIME(6) text in UTC ('2026-12-02 20:10:20.123456') → wall ms. */
const utcMs = (text: string): number => Date.parse(`${text.replace(' ', 'T')}Z`);

/**
 * The failed writes with ids chosen by the load (Enqueue, CreateNode) that MariaDB holds
 * with a creation time later than their call's deadline and `allowanceMs`.
 */
export async function findLateEffects(conn: Connection, failures: readonly Failure[], deadlineMs: number, allowanceMs: number): Promise<LateEffect[]> {
  const out: LateEffect[] = [];
  for (const [kind, table, key] of [['enqueue', 'work_items', 'id'], ['node', 'nodes', 'uuid']] as const) {
    const failed = failures.filter((f) => f.target?.kind === kind);
    const rows = await rowsFor<{ id: string; created_at: string }>(conn, (p) => `SELECT ${key} AS id, created_at FROM ${table} WHERE ${key} IN (${p})`, failed.map((f) => f.target?.id ?? ''));
    const createdAt = new Map(rows.map((r) => [r.id, utcMs(r.created_at)]));
    for (const f of failed) {
      const target = f.target as NonNullable<Failure['target']>;
      const at = createdAt.get(target.id);
      const lateMs = at === undefined ? 0 : at - (target.sentAt + deadlineMs);
      if (lateMs > allowanceMs) out.push({ method: f.method, id: target.id, phase: f.phase, lateMs: Math.round(lateMs) });
    }
  }
  return out;
}

/** A stable key of a lost write: the same write missing at two checks is one loss. */
export function lostKey(l: LostWrite): string {
  return `${l.kind}:${l.what}:${l.ackAt}`;
}
