// The admin view's pages and API answers, assembled from the shared reads (reads.ts), the
// peers (peers.ts), the load sampler (load.ts) and the change feed. HTTP lives in
// routes.ts. Every statement runs under the query source `admin`.
import { isAbsolute, resolve } from 'node:path';
import { MAX_WAIT_MS, TOPIC_PATTERN, MAX_TOPICS_PER_WAIT, MAX_TOPIC_CHARS, topics as topicOf } from '@sfdb/proto/topics';
import type { ChangeFeed } from '../changefeed/feed.js';
import type { CallerNames } from '../caller-names.js';
import type { Config } from '../config.js';
import type { Database } from '../db/pool.js';
import { InvalidArgumentError } from '../errors.js';
import type { Metrics } from '../metrics.js';
import * as v from '../validate.js';
import { clusterMain, nodeCard } from './cluster-page.js';
import type { ClusterView } from './cluster-page.js';
import { coordinationMain } from './coordination-page.js';
import { frame } from './html.js';
import type { PageName } from './html.js';
import { LOAD_SAMPLE_MS, LoadSampler } from './load.js';
import { loadMain } from './load-page.js';
import { objectRow, objectsMain, objectsQuery } from './objects-page.js';
import { defaultBudgetPath, packageVersion } from './package.js';
import { PeerClient } from './peers.js';
import type { PeerAnswer, ReplicaInfo } from './peers.js';
import { AdminReads } from './reads.js';
import type { ClusterSnapshot } from './reads.js';

/** The long-poll of /admin/api/changes: under the feed's longest, so proxies see traffic. */
export const ADMIN_WAIT_MS = MAX_WAIT_MS - 5_000;
/** Leases and stuck claims are re-read at most this often while a Coordination page is open. */
export const COORDINATION_REFRESH_MS = 10_000;
/** Most ids one changed-rows request names. */
const MAX_IDS = 200;

export interface AdminDeps {
  config: Config;
  db: Database;
  feed: ChangeFeed;
  metrics: Metrics;
  /** The daemon names the caller_daemon label knows (a Cluster page waits on their states). */
  callerNames: Pick<CallerNames, 'known'>;
}

/**
 * How often an open Cluster page re-reads heartbeats: a third of the shorter live bound
 * (1..10 s), so a live replica or node never looks stale between two reads.
 */
export function clusterRefreshMs(config: Pick<Config, 'nodeLiveMs' | 'replicaLiveMs'>): number {
  return Math.min(10_000, Math.max(1_000, Math.floor(Math.min(config.nodeLiveMs, config.replicaLiveMs) / 3)));
}

export interface Page {
  title: string;
  main: string;
  data: Record<string, string | number | undefined>;
}

function ids(field: string, raw: string | null, check: (field: string, value: string) => string): string[] {
  const list = (raw ?? '').split(',').filter((s) => s !== '');
  if (list.length === 0 || list.length > MAX_IDS) throw new InvalidArgumentError(field, `1..${MAX_IDS} comma-separated values`);
  return list.map((x, i) => check(`${field}[${i}]`, x));
}

export class AdminView {
  readonly reads: AdminReads;
  readonly version = packageVersion();
  readonly budgetPath: string;
  private readonly peers: PeerClient;
  private readonly load: LoadSampler;
  private readonly clusterMs: number;

  constructor(private readonly deps: AdminDeps) {
    const { config, metrics } = deps;
    this.clusterMs = clusterRefreshMs(config);
    this.reads = new AdminReads(
      deps.db.sql('admin'),
      { clusterMs: this.clusterMs, coordinationMs: COORDINATION_REFRESH_MS, replicasMs: 2 * LOAD_SAMPLE_MS },
      async () => (await deps.feed.since('', new Set(), 1)).cursor,
    );
    this.peers = new PeerClient(config.adminToken);
    const budget = config.adminBudget || defaultBudgetPath();
    this.budgetPath = isAbsolute(budget) ? budget : resolve(budget);
    this.load = new LoadSampler({ replicaId: config.replicaId, metrics, reads: this.reads, peers: this.peers, replicaLiveMs: config.replicaLiveMs, budgetPath: this.budgetPath });
    // Periodic only while a page of that kind is open (its module asks), shared by all open pages.
    const only = 'only while an admin page is open, shared by every open page:';
    metrics.declarePeriodicTask('admin_cluster', 'admin', this.clusterMs, `${only} replicas, node heartbeats and stats, daemon states (Cluster page)`);
    metrics.declarePeriodicTask('admin_coordination', 'admin', COORDINATION_REFRESH_MS, `${only} leases and stuck claims (Coordination page)`);
    metrics.declarePeriodicTask('admin_load', 'admin', 2 * LOAD_SAMPLE_MS, `${only} the live replicas whose /metrics the Load page sums`);
  }

  /** Refresh period of each page's module (0: follows the change feed only). */
  refreshMs(page: PageName): number {
    return { cluster: this.clusterMs, load: LOAD_SAMPLE_MS, coordination: COORDINATION_REFRESH_MS, objects: 0 }[page];
  }

  render(page: PageName, p: Page): string {
    return frame({ page, title: p.title, replicaId: this.deps.config.replicaId, version: this.version, data: { ...p.data, 'data-refresh-ms': this.refreshMs(page) }, main: p.main });
  }

  async replicaInfo(): Promise<ReplicaInfo> {
    const gauge = await this.deps.metrics.inFlight.get();
    return { replicaId: this.deps.config.replicaId, version: this.version, inFlight: gauge.values[0]?.value ?? 0, waiters: this.deps.feed.snapshot().waiters };
  }

  private async clusterView(snapshot: ClusterSnapshot): Promise<ClusterView> {
    const { config } = this.deps;
    const info = new Map<string, PeerAnswer<ReplicaInfo>>();
    await Promise.all(
      snapshot.replicas
        .filter((r) => Number(r.age_us) / 1000 < config.replicaLiveMs)
        .map(async (r) => {
          if (r.replica_id === config.replicaId) info.set(r.replica_id, { ok: true, value: await this.replicaInfo() });
          else if (r.metrics_address === '') info.set(r.replica_id, { ok: false, error: 'no HTTP address recorded' });
          else info.set(r.replica_id, await this.peers.info(r.metrics_address, this.clusterMs));
        }),
    );
    return { snapshot, selfId: config.replicaId, info, replicaLiveMs: config.replicaLiveMs, nodeLiveMs: config.nodeLiveMs };
  }

  async cluster(): Promise<Page> {
    // The snapshot's cursor was taken before its reads: changes after them reach the page.
    const snapshot = await this.reads.cluster();
    const main = clusterMain(await this.clusterView(snapshot));
    return { title: 'Cluster', main, data: { 'data-cursor': snapshot.cursor, 'data-view': 'cluster' } };
  }

  async loadPage(): Promise<Page> {
    return { title: 'Load', main: loadMain(await this.load.report(), LOAD_SAMPLE_MS), data: {} };
  }

  async coordination(): Promise<Page> {
    return { title: 'Coordination', main: coordinationMain(await this.reads.coordination(), COORDINATION_REFRESH_MS), data: {} };
  }

  async objects(params: URLSearchParams): Promise<Page> {
    const q = objectsQuery(params);
    if (q.namespace === '') return { title: 'Objects', ...objectsMain(q, undefined) };
    const { rows, cursor } = await this.reads.objectPage(q);
    const { main, data } = objectsMain(q, rows);
    return { title: `Objects · ${q.namespace} · ${q.type}`, main, data: { ...data, 'data-cursor': cursor } };
  }

  /** The cards of nodes whose daemon states changed: their daemon rows re-read (1 statement). */
  async nodeCards(params: URLSearchParams): Promise<{ cards: { uuid: string; html: string }[] }> {
    const uuids = ids('uuids', params.get('uuids'), v.uuid);
    const snapshot = this.reads.latestCluster() ?? (await this.reads.cluster());
    const { at, daemons } = await this.reads.nodeDaemons(uuids, this.deps.feed.snapshot().high);
    const cards = snapshot.nodes
      .filter((n) => uuids.includes(n.uuid))
      .map((n) => ({ uuid: n.uuid, html: nodeCard(n, snapshot.at, daemons.get(n.uuid) ?? [], at, this.deps.config.nodeLiveMs) }));
    return { cards };
  }

  /** Changed rows of an Objects page (1 statement); `gone` were deleted or moved away. */
  async objectRows(params: URLSearchParams): Promise<{ rows: { uuid: string; html: string }[]; gone: string[] }> {
    const q = objectsQuery(params);
    if (q.namespace === '') throw new InvalidArgumentError('namespace', 'required');
    const uuids = ids('uuids', params.get('uuids'), v.uuid);
    const { rows } = await this.reads.objects({ type: q.type, namespace: q.namespace, uuids }, this.deps.feed.snapshot().high);
    const found = new Set(rows.map((r) => r.uuid));
    return { rows: rows.map((r) => ({ uuid: r.uuid, html: objectRow(r) })), gone: uuids.filter((u) => !found.has(u)) };
  }

  /** The topics a page waits on: `view=cluster` (every node's daemons), or `topics=a,b`. */
  private async topicsOf(params: URLSearchParams): Promise<Set<string>> {
    if (params.get('view') === 'cluster') {
      const snapshot = this.reads.latestCluster() ?? (await this.reads.cluster());
      const out = new Set<string>();
      for (const n of snapshot.nodes) {
        for (const d of this.deps.callerNames.known()) out.add(topicOf.daemonState(n.uuid, d));
        for (const d of snapshot.daemons.get(n.uuid) ?? []) out.add(topicOf.daemonState(n.uuid, d.daemon));
      }
      return out;
    }
    const list = (params.get('topics') ?? '').split(',').filter((t) => t !== '');
    if (list.length === 0 || list.length > MAX_TOPICS_PER_WAIT) throw new InvalidArgumentError('topics', `1..${MAX_TOPICS_PER_WAIT} comma-separated topics, or view=cluster`);
    for (const [i, t] of list.entries()) {
      if (t.length > MAX_TOPIC_CHARS || !TOPIC_PATTERN.test(t)) throw new InvalidArgumentError(`topics[${i}]`, 'not a topic');
    }
    return new Set(list);
  }

  /** The long-poll: ids and kinds of changes on the page's topics past its cursor, from the feed's window. */
  async changes(params: URLSearchParams, signal: AbortSignal): Promise<{ cursor: string; resync: boolean; more: boolean; changes: { topic: string; id: string; kind: string }[] }> {
    const topicSet = await this.topicsOf(params);
    const answer = await this.deps.feed.wait(topicSet, params.get('cursor') ?? '', ADMIN_WAIT_MS, signal);
    return { cursor: answer.cursor, resync: answer.resync, more: answer.more, changes: answer.changes.map((c) => ({ topic: c.topic, id: c.objectId, kind: c.kind })) };
  }
}
