// What the admin pages read, and how often at most. Every read is shared: identical
// requests within its time-to-live (from any number of open pages) share one set of
// statements, so an open page's cost is a constant number of statements per minute
// whatever the number of pages or the cluster's size (docs/admin.md). Nothing here runs
// on its own: a read happens when a page asks.
import { performance } from 'node:perf_hooks';
import type { Sql } from '../db/sql.js';
import { listLeases } from '../rpc/leases/queries.js';
import type { LeaseRow } from '../rpc/leases/queries.js';
import { selectNodeStatus, selectReplicaStatus } from '../rpc/nodes/queries.js';
import type { NodeStatusRow, ReplicaStatusRow } from '../rpc/nodes/queries.js';
import * as q from './queries.js';

/** Most leases and stuck claims the Coordination page lists. */
export const LEASE_LIMIT = 1000;
export const STUCK_LIMIT = 100;
/** How long a change-driven re-read is shared (pages woken by the same change). */
const CHANGED_ROWS_TTL_MS = 250;
/** How long a page of objects is shared (pages opened together). */
const OBJECT_PAGE_TTL_MS = 1000;
/**
 * A periodic read lives its period less this: one page asking every period reads each
 * time, and any number of pages cost at most one read per (period - slack).
 */
const PERIOD_SLACK_MS = 250;
/** Entries kept at most (expired ones go first). */
const MAX_ENTRIES = 1000;

/** Promises shared by key for a while; a failed read is forgotten at once. */
export class Shared {
  private readonly entries = new Map<string, { at: number; value: Promise<unknown> }>();

  get<T>(key: string, ttlMs: number, read: () => Promise<T>): Promise<T> {
    const now = performance.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < ttlMs) return hit.value as Promise<T>;
    if (this.entries.size >= MAX_ENTRIES) {
      for (const [k, e] of this.entries) if (now - e.at >= ttlMs) this.entries.delete(k);
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    }
    const value = read();
    const entry = { at: now, value };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }
}

/**
 * Rows with ages by database time, when (performance.now) they were read, and the change
 * feed's cursor taken just before: a page showing them follows the feed from there, so a
 * shared read never hides a change that came after it.
 */
export interface ClusterSnapshot {
  at: number;
  cursor: string;
  replicas: ReplicaStatusRow[];
  nodes: NodeStatusRow[];
  /** node uuid → its daemons' states. */
  daemons: Map<string, q.DaemonRow[]>;
}

export interface Coordination {
  at: number;
  leases: LeaseRow[];
  leasesTruncated: boolean;
  stuck: q.StuckRow[];
  stuckTruncated: boolean;
}

export interface ObjectRows {
  at: number;
  /** The feed's cursor before the read (as ClusterSnapshot). */
  cursor: string;
  rows: q.ObjectListRow[];
}

/** A database age (microseconds, as read at `at`) as it is now, in ms. */
export function ageNow(us: string | null, at: number): number | null {
  if (us === null) return null;
  return Number(us) / 1000 + (performance.now() - at);
}

export function byNode(rows: readonly q.DaemonRow[]): Map<string, q.DaemonRow[]> {
  const out = new Map<string, q.DaemonRow[]>();
  for (const r of rows) {
    const list = out.get(r.node_uuid) ?? [];
    list.push(r);
    out.set(r.node_uuid, list);
  }
  return out;
}

export interface ReadIntervals {
  /** The cluster snapshot (replicas, nodes, daemon states): 3 statements at most this often. */
  clusterMs: number;
  /** Leases and stuck claims: 2 statements at most this often. */
  coordinationMs: number;
  /** The live replicas the Load page scrapes: 1 statement at most this often. */
  replicasMs: number;
}

export class AdminReads {
  private readonly shared = new Shared();
  private latest: ClusterSnapshot | undefined;

  constructor(
    private readonly sql: Sql,
    readonly intervals: ReadIntervals,
    /** The change feed's current cursor (no statement). */
    private readonly cursor: () => Promise<string>,
  ) {}

  /** Replicas, nodes with their heartbeats and stats, and every daemon state: 3 statements. */
  cluster(): Promise<ClusterSnapshot> {
    return this.shared.get('cluster', this.intervals.clusterMs - PERIOD_SLACK_MS, async () => {
      const cursor = await this.cursor();
      const at = performance.now();
      const [replicas, nodes, daemons] = await Promise.all([
        selectReplicaStatus(this.sql),
        selectNodeStatus(this.sql),
        q.selectAllDaemonStates(this.sql),
      ]);
      this.latest = { at, cursor, replicas, nodes, daemons: byNode(daemons) };
      return this.latest;
    });
  }

  /** The last cluster snapshot read, whatever its age (no statement); undefined before the first. */
  latestCluster(): ClusterSnapshot | undefined {
    return this.latest;
  }

  /** The registry alone (the Load page's scrape targets): 1 statement, or none when the snapshot is fresh. */
  replicas(): Promise<{ at: number; replicas: ReplicaStatusRow[] }> {
    return this.shared.get('replicas', this.intervals.replicasMs - PERIOD_SLACK_MS, async () => {
      const at = performance.now();
      return { at, replicas: await selectReplicaStatus(this.sql) };
    });
  }

  /**
   * The daemon states of the nodes a change named: 1 statement, shared by the pages it woke.
   * `feedHigh` (the change feed's high mark) is part of the key: a later change is never
   * answered from a read that preceded it.
   */
  nodeDaemons(nodeUuids: readonly string[], feedHigh: string): Promise<{ at: number; daemons: Map<string, q.DaemonRow[]> }> {
    const uuids = [...new Set(nodeUuids)].sort();
    return this.shared.get(`daemons:${feedHigh}:${uuids.join(',')}`, CHANGED_ROWS_TTL_MS, async () => {
      const at = performance.now();
      return { at, daemons: byNode(await q.selectDaemonStatesOf(this.sql, uuids)) };
    });
  }

  /** Leases (holder, token, expiry) and stuck claims: 2 statements. */
  coordination(): Promise<Coordination> {
    return this.shared.get('coordination', this.intervals.coordinationMs - PERIOD_SLACK_MS, async () => {
      const at = performance.now();
      const [leases, stuck] = await Promise.all([
        listLeases(this.sql, { pattern: '', after: undefined, limit: LEASE_LIMIT + 1 }),
        q.selectStuckClaims(this.sql, STUCK_LIMIT + 1),
      ]);
      return {
        at,
        leases: leases.slice(0, LEASE_LIMIT),
        leasesTruncated: leases.length > LEASE_LIMIT,
        stuck: stuck.slice(0, STUCK_LIMIT),
        stuckTruncated: stuck.length > STUCK_LIMIT,
      };
    });
  }

  /** A keyset page of a namespace's objects (limit + 1 rows: the extra one says "more"). */
  objectPage(a: { type: string; namespace: string; after: string; limit: number }): Promise<ObjectRows> {
    return this.shared.get(`page:${a.type}:${a.namespace}:${a.after}:${a.limit}`, OBJECT_PAGE_TTL_MS, async () => {
      const cursor = await this.cursor();
      const at = performance.now();
      return { at, cursor, rows: await q.selectNamespacePage(this.sql, { ...a, limit: a.limit + 1 }) };
    });
  }

  /** The changed rows of a page of objects: 1 statement, shared by the pages the change woke (keyed as nodeDaemons). */
  objects(a: { type: string; namespace: string; uuids: readonly string[] }, feedHigh: string): Promise<ObjectRows> {
    const uuids = [...new Set(a.uuids)].sort();
    return this.shared.get(`objects:${feedHigh}:${a.type}:${a.namespace}:${uuids.join(',')}`, CHANGED_ROWS_TTL_MS, async () => {
      const at = performance.now();
      return { at, cursor: '', rows: await q.selectNamespaceObjects(this.sql, { type: a.type, namespace: a.namespace, uuids }) };
    });
  }
}
