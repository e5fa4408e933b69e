// The dashboard and the rules, checked against a real Prometheus: it scrapes a running tier,
// three real sf-daemon processes (queues, cluster, agent; feed mode) and this process's
// client metrics, loads the generated rules, and then every panel expression of
// ops/grafana/sf-database.json and every rule of ops/prometheus/sf-database-rules.yaml is
// evaluated through Prometheus's HTTP API: none may be invalid, and each must return
// series unless it is listed below with the reason it is empty on a healthy cluster.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientRegistry, createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { buildDashboard, panelQueries } from '../../ops/grafana/dashboard.js';
import { freePort } from '../../server/embedded/mariadb.js';
import { childEnv, spawnTs } from '../../harness/children.js';
import { PROMETHEUS_MISSING, prometheusBinary, startPrometheus, substitute } from '../helpers/prometheus.js';
import type { TestPrometheus } from '../helpers/prometheus.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

const RULES = resolve('ops/prometheus/sf-database-rules.yaml');

/**
 * Panel expressions that may rightly return nothing on a healthy cluster, by a substring
 * of the expression, with the reason.
 */
const MAY_BE_EMPTY: [string, string][] = [
  ['database_client_feed_errors_total', 'no long-poll fails while the tier is up'],
  ['database_daemon_loop_errors_total', 'the daemons meet no errors'],
  ['database_daemon_jobs_total', 'no work item is enqueued for the queues daemon'],
  ['database_changefeed_gaps_skipped_total', 'no transaction is held open past the gap timeout'],
  ['database_changefeed_pokes_total', 'one replica: it has no peer to poke'],
  ['database_rate_limited_total', 'no caller is over its rate'],
  ['database_daemon_state_polls_total', 'in feed mode a daemon reads its state only for a change it did not write: none here'],
];

/** Rules that are empty on a healthy cluster: every alert (none should fire). */
function mayBeEmptyRule(rule: { type: string }): boolean {
  return rule.type === 'alerting';
}

let t: TestTier;
let prom: TestPrometheus;
let metricsServer: Server;
const daemons: ChildProcess[] = [];
let db: DatabaseClient;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  if (!prometheusBinary()) throw new Error(PROMETHEUS_MISSING);
  t = await startTestTier();
  const target = `127.0.0.1:${t.tier.grpcPort}`;
  const node = randomUUID();
  db = createClient({ targets: target, callerDaemon: 'cleaner', callerNode: node });
  await db.createNode({ uuid: node, fqdn: `prom-${node}.test` });
  await db.nodeHeartbeat(node, {});

  // Three real daemon processes, each serving its framework and client metrics.
  const daemonPorts: number[] = [];
  for (const daemon of ['queues', 'cluster', 'agent']) {
    const port = await freePort();
    daemonPorts.push(port);
    const proc = spawnTs('daemons/main.ts', ['--daemon', daemon, '--node', node, '--metrics-port', String(port)], { env: childEnv({ SFDB_TARGETS: target }), stdio: 'ignore' });
    daemons.push(proc);
  }
  // This process's client metrics (the cache below), served the way sf-daemon serves them.
  metricsServer = createServer((_req, res) => {
    void clientRegistry.metrics().then((body) => {
      res.writeHead(200, { 'content-type': clientRegistry.contentType });
      res.end(body);
    });
  });
  const server = metricsServer;
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const ownPort = (server.address() as AddressInfo).port;

  prom = await startPrometheus({
    jobs: [
      { job: 'sf-database', targets: [`127.0.0.1:${t.tier.httpPort}`] },
      { job: 'sf-daemon', targets: [...daemonPorts, ownPort].map((p) => `127.0.0.1:${p}`) },
    ],
    ruleFiles: [RULES],
  });

  // Traffic: cached static reads (a miss, then hits; a shared load; an eviction), a refused
  // call (an error code), and the daemons' own calls; then enough scrapes for rate() over 1m.
  const instance = randomUUID();
  await db.createInstance({ uuid: instance, nodeUuid: node, staticValues: { name: 'prom' } });
  for (let i = 0; i < 5; i++) await db.getInstance(instance);
  // Two reads of an uncached object at once share one load; a delete evicts (reason write).
  const other = randomUUID();
  await db.createInstance({ uuid: other, nodeUuid: node, staticValues: { name: 'prom-2' } });
  await Promise.all([db.getInstance(other), db.getInstance(other)]);
  await db.deleteInstance(other);
  await db.getNode('not-a-uuid').catch(() => undefined);
  await until('every target up with 4 samples', async () => {
    const r = await prom.query('count_over_time(up[1m]) >= 4 and up == 1');
    return r.length === 1 + daemonPorts.length + 1 ? r : undefined;
  });
}, 120_000);

afterAll(async () => {
  db?.close();
  const exits = daemons.map((d) => (d.exitCode === null && d.signalCode === null ? new Promise<void>((r) => d.once('exit', () => r())) : Promise.resolve()));
  for (const d of daemons) d.kill('SIGTERM');
  await Promise.all(exits);
  metricsServer?.close();
  await prom?.stop();
  await t?.stop();
});

describe('against a real Prometheus', () => {
  it('every dashboard panel expression is valid and returns series', async () => {
    const queries = panelQueries(buildDashboard());
    expect(queries.length).toBeGreaterThan(15);
    const empty: string[] = [];
    for (const q of queries) {
      const expr = substitute(q.expr);
      const result = await prom.query(expr).catch((err: unknown) => {
        throw new Error(`panel "${q.panel}": ${expr}: ${(err as Error).message}`);
      });
      if (result.length === 0 && !MAY_BE_EMPTY.some(([part]) => expr.includes(part))) empty.push(`${q.panel}: ${expr}`);
    }
    expect(empty, 'panels with no series').toEqual([]);
  });

  it('every recording rule and alert evaluates without error; every recording rule has series', async () => {
    interface Rule {
      name: string;
      type: string;
      health: string;
      lastError?: string;
      query: string;
    }
    const rules = await until('every rule evaluated twice', async () => {
      const data = await prom.api<{ groups: { rules: Rule[] }[] }>('rules');
      const all = data.groups.flatMap((g) => g.rules);
      return all.length > 0 && all.every((r) => r.health !== 'unknown') ? all : undefined;
    });
    const unhealthy = rules.filter((r) => r.health !== 'ok').map((r) => `${r.name}: ${r.lastError ?? r.health}`);
    expect(unhealthy).toEqual([]);
    expect(rules.some((r) => r.type === 'recording')).toBe(true);
    expect(rules.some((r) => r.type === 'alerting')).toBe(true);

    const empty: string[] = [];
    for (const name of new Set(rules.filter((r) => !mayBeEmptyRule(r)).map((r) => r.name))) {
      if ((await prom.query(name)).length === 0) empty.push(name);
    }
    expect(empty, 'recording rules with no series').toEqual([]);
  });

  it('a quiet healthy cluster has no replica-down, blind-model, pool or waiter-cap alert even pending', async () => {
    // `for:` keeps alerts pending for minutes; what matters here is that no alert is even
    // pending for the replica being down, the model being blind or the pool saturated.
    const alerts = await prom.api<{ alerts: { labels: Record<string, string>; state: string }[] }>('alerts');
    const names = alerts.alerts.map((a) => a.labels['alertname']);
    for (const never of ['SfdbReplicaDown', 'SfdbLoadModelBlind', 'SfdbPoolSaturated', 'SfdbWaiterCapNear']) expect(names).not.toContain(never);
  });
});
