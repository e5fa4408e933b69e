// The admin view over plain HTTP against a real tier (loopback, no token): what each page
// shows, the long-poll over the change feed (ids and kinds only), the changed-rows reads,
// and what it costs — nothing while no page asks, and reads shared between pages.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeRates } from '../../proto/runtime/budget.js';
import type { LoadBudget } from '../../proto/runtime/budget.js';
import { LoadSampler, changeRateBetween, ratesBetween, readExposition } from '../../server/admin/load.js';
import { loadMain } from '../../server/admin/load-page.js';
import { Metrics } from '../../server/metrics.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { metricValue } from '../../harness/scrape.js';
import { startTestTier, useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier({ env: { SFDB_NODE_LIVE_MS: '3000' } });

const base = (): string => `http://127.0.0.1:${t.tier.httpPort}`;
const text = async (path: string): Promise<string> => {
  const res = await fetch(`${base()}${path}`);
  expect(res.status, path).toBe(200);
  return res.text();
};
const json = async <T>(path: string): Promise<T> => JSON.parse(await text(path)) as T;
const adminStatements = async (): Promise<number> => metricValue(await t.metrics(), 'database_queries_total', { source: 'admin' });

async function node(fqdn: string): Promise<string> {
  const uuid = randomUUID();
  await db.createNode({ uuid, fqdn });
  return uuid;
}

describe('admin pages', () => {
  it('runs no statement while no page asks, and declares its periodic reads', async () => {
    const before = await adminStatements();
    await new Promise((r) => setTimeout(r, 1500));
    expect(await adminStatements()).toBe(before);
    const metrics = await t.metrics();
    for (const task of ['admin_cluster', 'admin_coordination', 'admin_load']) {
      expect(metrics).toMatch(new RegExp(`database_periodic_task_interval_seconds\\{task="${task}",source="admin",duty="only while an admin page is open[^"]*"\\}`));
    }
  });

  it('redirects /admin to the Cluster page: replicas and nodes with daemons and stats', async () => {
    const res = await fetch(`${base()}/admin`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/admin/cluster');
    const n = await node('card-1.example.com');
    await db.nodeHeartbeat(n, { load1: 0.25, disks: 3 });
    await db.setNodeDaemonState(n, 'queues', 'RUNNING', 'draining jobs');
    await new Promise((r) => setTimeout(r, 1100)); // past the shared snapshot's life (1 s)
    const html = await text('/admin/cluster');
    expect(html).toContain(`id="replica-${t.config.replicaId}"`);
    expect(html).toContain('(this replica)');
    expect(html).toMatch(/<dt>version<\/dt><dd>\d+\.\d+\.\d+<\/dd>/);
    expect(html).toContain(`id="node-${n}"`);
    expect(html).toContain('card-1.example.com');
    expect(html).toMatch(/data-daemon="queues"[^>]*><th scope="row">queues<\/th><td><span class="state state-running">RUNNING<\/span>/);
    expect(html).toContain('<dt>load1</dt><dd>0.25</dd>');
    expect(html).toMatch(/data-age-ms="\d+" data-live-ms="3000"/);
    expect(html).toContain('<script type="module" src="/admin/live.js"></script>');
  });

  it('lists leases and stuck claims on the Coordination page', async () => {
    await db.acquireLease('admin-test/singleton', 'holder-a', 60_000);
    const n = await node('stuck-1.example.com');
    const item = randomUUID();
    await db.enqueue({ id: item, nodeUuid: n, queue: 'jobs', payload: {} });
    await db.dequeue({ nodeUuid: n, queues: ['jobs'], leaseMs: 1000, holder: 'worker-1' });
    await new Promise((r) => setTimeout(r, 1200));
    // A fresh replica read: the page shares reads for 10 s, so ask for it past any earlier one.
    const html = await text('/admin/coordination');
    expect(html).toMatch(/data-lease="admin-test\/singleton"><th scope="row">admin-test\/singleton<\/th><td>holder-a<\/td><td class="num">\d+<\/td><td><time class="age" data-expires-ms="\d+">/);
    expect(html).toContain(`data-item="${item}"`);
    expect(html).toContain('worker-1');
  });

  it('lists a namespace\'s objects in keyset pages, secrets masked', async () => {
    const ns = `ns-${randomUUID().slice(0, 8)}`;
    const uuids = Array.from({ length: 12 }, () => randomUUID()).sort();
    for (const uuid of uuids) await db.createInstance({ uuid, namespace: ns, staticValues: { cpu: 2, password: 'hunter2-secret' }, secretFields: ['password'] });
    const first = await text(`/admin/objects?namespace=${ns}&type=instance&limit=10`);
    expect(first).not.toContain('hunter2-secret');
    expect(first).toContain('&quot;password&quot;:&quot;(secret)&quot;');
    for (const u of uuids.slice(0, 10)) expect(first).toContain(`id="obj-${u}"`);
    expect(first).not.toContain(`id="obj-${uuids[10]}"`);
    expect(first).toContain(`data-through="${uuids[9]}"`);
    expect(first).toContain(`data-topics="namespace/${ns}/instance"`);
    const second = await text(`/admin/objects?namespace=${ns}&type=instance&limit=10&after=${uuids[9]}`);
    expect(second).toContain(`id="obj-${uuids[11]}"`);
    expect(second).toContain('data-through=""'); // the last page is open-ended
    const bad = await fetch(`${base()}/admin/objects?namespace=BAD&type=instance`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('namespace');
  });

  it('shows rates summed over the live replicas against the budget on the Load page', async () => {
    await text('/admin/load'); // the first sample
    for (let i = 0; i < 5; i++) await db.getClusterConfig(`k${i}`);
    await new Promise((r) => setTimeout(r, 5000));
    const html = await text('/admin/load');
    expect(html).toMatch(/Rates over the last \d+ s, summed over 1 live replica/);
    expect(html).toMatch(/<th scope="row">GetClusterConfig<\/th><td>test<\/td><td class="num">[\d.]+<\/td><td class="num">5<\/td>/);
    expect(html).toContain('load-budget.json');
    expect(html).toContain('<svg viewBox=');
    // MariaDB seconds beside the rates: the calls' own, and the tier's own work (its registry heartbeat) under sf-database.
    expect(html).toMatch(/<th scope="row">GetClusterConfig<\/th><td>test<\/td>(<td class="num">[^<]*<\/td>){4}<td class="num">[\d.e-]+<\/td>/);
    expect(html).toMatch(/<th scope="row">registry<\/th><td>sf-database<\/td><td class="num">0<\/td><td class="num">0<\/td>/);
    expect(html).toMatch(/<p class="costs">MariaDB busy [\d.e-]+ s\/s, pool wait/);
  });
});

describe('admin live API', () => {
  it('answers the current cursor at once, then wakes on a change with ids and kinds only', async () => {
    const ns = `live-${randomUUID().slice(0, 8)}`;
    const topic = `namespace/${ns}/instance`;
    const { cursor } = await json<{ cursor: string }>(`/admin/api/changes?topics=${topic}&cursor=`);
    const uuid = randomUUID();
    const waiting = json<{ changes: { topic: string; id: string; kind: string }[] }>(`/admin/api/changes?topics=${topic}&cursor=${cursor}`);
    await new Promise((r) => setTimeout(r, 100));
    await db.createInstance({ uuid, namespace: ns, staticValues: { payload: 'never on the feed' } });
    // Woken by the change, not answered at the wait's end (ADMIN_WAIT_MS, 25 s). Timing:
    // counted from the write's answer, as a loaded machine can spend most of 2 s on the
    // write itself; the wake comes with its commit.
    const written = performance.now();
    const answer = await waiting;
    expect(performance.now() - written).toBeLessThan(2000);
    expect(answer.changes).toEqual([{ topic, id: uuid, kind: 'created' }]);
    expect(JSON.stringify(answer)).not.toContain('never on the feed');

    const rows = await json<{ rows: { uuid: string; html: string }[]; gone: string[] }>(`/admin/api/objects?namespace=${ns}&type=instance&uuids=${uuid},${randomUUID()}`);
    expect(rows.rows.map((r) => r.uuid)).toEqual([uuid]);
    expect(rows.gone).toHaveLength(1);
  });

  it('wakes a Cluster page on a daemon-state change and re-reads that node only', async () => {
    const n = await node('wake-1.example.com');
    await db.setNodeDaemonState(n, 'agent', 'RUNNING');
    await new Promise((r) => setTimeout(r, 1100)); // the next snapshot knows the node
    await text('/admin/cluster?fragment=main');
    const { cursor } = await json<{ cursor: string }>('/admin/api/changes?view=cluster&cursor=');
    const waiting = json<{ changes: { topic: string; id: string; kind: string }[] }>(`/admin/api/changes?view=cluster&cursor=${cursor}`);
    await new Promise((r) => setTimeout(r, 100));
    await db.setNodeDaemonState(n, 'agent', 'STOPPED');
    expect((await waiting).changes).toEqual([{ topic: `daemon/${n}/agent`, id: 'agent', kind: 'state' }]);
    const before = await adminStatements();
    const { cards } = await json<{ cards: { uuid: string; html: string }[] }>(`/admin/api/nodes?uuids=${n}`);
    expect(cards[0]?.html).toMatch(/data-daemon="agent"[^>]*>.*STOPPED/);
    expect(await adminStatements()).toBe(before + 1);
  });

  it('refuses bad input naming the parameter', async () => {
    for (const [path, field] of [
      ['/admin/api/changes?topics=Not%20A%20Topic&cursor=', 'topics[0]'],
      ['/admin/api/changes?topics=a&cursor=zz', 'cursor'],
      ['/admin/api/changes?cursor=', 'topics'],
      ['/admin/api/nodes?uuids=x', 'uuids[0]'],
    ] as const) {
      const res = await fetch(`${base()}${path}`);
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { field: string }).field, path).toBe(field);
    }
  });

  it('shares reads between pages: many refreshes within a period cost one snapshot (3 statements)', async () => {
    // A replica of its own with the longest Cluster period (10 s: a read shared 9.75 s).
    // Timing: with this file's 3 s liveness a read is shared 750 ms, and beside two busy
    // loops the scrapes and 21 pages took about 1 s: a late page could pay for a second read.
    const own = await startTestTier({ env: { SFDB_NODE_LIVE_MS: '30000', SFDB_REPLICA_LIVE_MS: '30000' } });
    try {
      const page = async (): Promise<void> => {
        const res = await fetch(`http://127.0.0.1:${own.tier.httpPort}/admin/cluster?fragment=main`);
        expect(res.status).toBe(200);
        await res.text();
      };
      const statements = async (): Promise<number> => metricValue(await own.metrics(), 'database_queries_total', { source: 'admin' });
      const before = await statements();
      await Promise.all(Array.from({ length: 20 }, page));
      await page();
      expect(await statements()).toBe(before + 3);
    } finally {
      await own.stop();
    }
  });

  it('serves the live module as JavaScript (transpiled from source here) and the stylesheet', async () => {
    const res = await fetch(`${base()}/admin/live.js`);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    const js = await res.text();
    expect(js).toContain('function tick()');
    expect(js).not.toMatch(/^\s*interface\s/m);
    expect(js).not.toContain(': string');
    const css = await fetch(`${base()}/admin/admin.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });
});

describe('the Load page\'s arithmetic', () => {
  it('reads request counters from a peer\'s /metrics and sums rates over replicas, a restart counting from zero', () => {
    const text = [
      '# TYPE database_requests_total counter',
      'database_requests_total{operation="GetNode",caller_daemon="agent"} 30',
      'database_requests_total{operation="Dequeue",caller_daemon="queues"} 5',
      'process_start_time_seconds 1700000000',
    ].join('\n');
    const peer = readExposition(text);
    expect(peer.start).toBe(1700000000);
    expect(peer.counters.get('GetNode\u0000agent')).toBe(30);
    const key = 'GetNode\u0000agent';
    const before = { at: 0, replicas: new Map([['a', { at: 0, start: 1, counters: new Map([[key, 10]]) }], ['b', { at: 0, start: 1, counters: new Map([[key, 50]]) }]]) };
    const after = {
      at: 10_000,
      replicas: new Map([
        ['a', { at: 10_000, start: 1, counters: new Map([[key, 30]]) }], // +20 in 10 s
        ['b', { at: 10_000, start: 2, counters: new Map([[key, 5]]) }], // restarted: 5 since
        ['c', { at: 10_000, start: 1, counters: new Map([[key, 99]]) }], // new: no baseline yet
      ]),
    };
    // No replica reports MariaDB seconds here: they are unknown, not 0.
    expect(ratesBetween(before, after)).toEqual([{ operation: 'GetNode', caller_daemon: 'agent', rate: 2.5, calls: 25, seconds: null, share: null, poolWait: null }]);
  });

  it('reads the change rate from each replica\'s own commits (not its tail reads), summed, a restart counting from zero', () => {
    const peer = readExposition(
      [
        'database_changefeed_changes_total{via="commit"} 40',
        'database_changefeed_changes_total{via="tail"} 900',
        'database_requests_total{operation="GetNode",caller_daemon="agent"} 1',
      ].join('\n'),
    );
    expect(peer.changes).toBe(40);
    expect(readExposition('database_requests_total{operation="GetNode",caller_daemon="agent"} 1').changes).toBeUndefined();
    const replica = (t: number, start: number, changes: number | undefined): { at: number; start: number; counters: Map<string, number>; changes: number | undefined } => ({
      at: t,
      start,
      counters: new Map(),
      changes,
    });
    const before = { at: 0, replicas: new Map([['a', replica(0, 1, 10)], ['b', replica(0, 1, 50)], ['old', replica(0, 1, undefined)]]) };
    const after = { at: 10_000, replicas: new Map([['a', replica(10_000, 1, 30)], ['b', replica(10_000, 2, 5)], ['old', replica(10_000, 1, undefined)], ['c', replica(10_000, 1, 99)]]) };
    expect(changeRateBetween(before, after)).toBe(2.5); // a: +20, b restarted: 5 since, c: no baseline
    const quiet = { at: 10_000, replicas: new Map([['old', replica(10_000, 1, undefined)]]) };
    expect(changeRateBetween(before, quiet)).toBeUndefined();
  });

  it('judges pairs at the cluster\'s churn: a pair OVER at churn 0 is ok under the change rate the replicas report', async () => {
    // The budget's churn terms: WaitForChanges/agent = 1 + 1·churn + 0.5·nodes·churn; a quiet
    // cluster commits 1 change/s.
    const budget: LoadBudget = {
      derivation: { command: 'test', derivedAt: '', mode: 'feed', runs: [] },
      ceiling: { factor: 1.5, floor: 0.2 },
      unbudgetedSteadyRate: 0.5,
      changeRate: { cluster: 1, perNode: 0, perInstance: 0 },
      pairs: [{ operation: 'WaitForChanges', caller_daemon: 'agent', cluster: 1, perNode: 0, perInstance: 0, perChurn: 1, perNodeChurn: 0.5, r2: 1 }],
    };
    const dir = mkdtempSync(join(tmpdir(), 'sfdb-load-'));
    try {
      const budgetPath = join(dir, 'budget.json');
      writeFileSync(budgetPath, JSON.stringify(budget));
      const clock = new FakeClock();
      const metrics = new Metrics('self');
      metrics.setClusterSize({ replicasLive: 2, nodesLive: 2, nodesStale: 0, instances: 0 });
      const peer = { waits: 0, commits: 0 };
      const replicas = [
        { replica_id: 'self', address: '', metrics_address: '', started_at: '', age_us: '0' },
        { replica_id: 'peer', address: '', metrics_address: 'peer:13006', started_at: '', age_us: '0' },
      ];
      const sampler = new LoadSampler({
        replicaId: 'self',
        metrics,
        reads: { replicas: () => Promise.resolve({ at: clock.now(), replicas }) },
        peers: {
          metrics: () =>
            Promise.resolve({
              ok: true as const,
              value: {
                at: clock.now(),
                text: [
                  'process_start_time_seconds 1700000000',
                  `database_requests_total{operation="WaitForChanges",caller_daemon="agent"} ${peer.waits}`,
                  `database_changefeed_changes_total{via="commit"} ${peer.commits}`,
                  `database_changefeed_changes_total{via="tail"} ${peer.commits * 50}`,
                ].join('\n'),
              },
            }),
        },
        replicaLiveMs: 10_000,
        budgetPath,
        clock,
      });
      await sampler.report(); // the first sample
      // 10 s: 100 WaitForChanges from agents (10/s) while the replicas commit 40 change rows (4/s).
      for (let i = 0; i < 50; i++) metrics.countRequest('WaitForChanges', 'agent');
      metrics.feedChanges.labels('commit').inc(20);
      metrics.feedChanges.labels('tail').inc(500); // tail reads are the other replica's commits: not counted again
      Object.assign(peer, { waits: 50, commits: 20 });
      await clock.advance(10_000);
      const report = await sampler.report();
      expect(report.seconds).toBe(10);
      expect(report.changesPerSecond).toBe(4);
      expect(report.shape).toEqual({ nodes: 2, instances: 0, churn: 3 }); // 4 changes/s less the quiet 1
      const measured = { operation: 'WaitForChanges', caller_daemon: 'agent', rate: 10 };
      // At churn 0 the pair's ceiling is max(1.5 × 1, 1 + 0.2) = 1.5: OVER.
      expect(judgeRates(budget, [measured], { nodes: 2, instances: 0 })[0]?.status).toBe('OVER');
      // At churn 3: expected 1 + 3 + 0.5·2·3 = 7, ceiling 10.5: ok.
      // This replica reports its MariaDB seconds (none spent for agent: 0); the budget has no seconds model here.
      const seconds = { seconds: 0, share: null, poolWait: 0, expectedSeconds: null, secondsCeiling: null, over: [] };
      expect(report.rows).toEqual([{ ...measured, calls: 100, expected: 7, ceiling: 10.5, status: 'ok', ...seconds }]);
      const html = loadMain(report, 5000);
      expect(html).toContain('<span class="churn">4.000 changes/s (churn 3.000/s above a quiet cluster of this size)</span>');
      expect(html).toContain('perChurn·churn + perNodeChurn·nodes·churn');
      expect(html).not.toContain('outside the budget');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
