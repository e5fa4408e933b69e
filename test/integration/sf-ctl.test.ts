// sf-ctl as the operator runs it — a child process (`node --import tsx ops/ctl/main.ts`) —
// against a real tier: status lists what was created, load's rates match the tier's own
// counters, its exit code follows the budget, stop-daemon stops an in-process daemon (and
// times out on a state row nobody acts on), the stop holds a daemon started again until
// start-daemon releases it (which times out when no process waits), audit lists declared tasks against measured
// rates, migrate runs sf-database migrate; bad arguments exit 2, an unreachable target 3.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseClient } from '../../client/index.js';
import { AgentDaemon, daemonRegistry, daemonSettings } from '../../daemons/index.js';
import { metricValue } from '../../harness/scrape.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';
import { runCtl } from '../helpers/sf-ctl.js';

let t: TestTier;
let admin: DatabaseClient;
let target: string;

beforeAll(async () => {
  t = await startTestTier();
  admin = t.client({ cache: false, feed: false });
  target = `127.0.0.1:${t.tier.grpcPort}`;
});
afterAll(async () => {
  await t.stop();
});

/** Runs sf-ctl (test/helpers/sf-ctl.ts). `onStderr` sees stderr as it grows (load and audit say when their first scrape is done). */
const ctl = runCtl;

/** Resolves once `text` appears on the run's stderr. */
function stderrSays(text: string): { onStderr: (s: string) => void; seen: Promise<void> } {
  let resolve: () => void = () => {};
  const seen = new Promise<void>((r) => (resolve = r));
  return { onStderr: (s) => s.includes(text) && resolve(), seen };
}

async function node(prefix: string): Promise<{ uuid: string; fqdn: string }> {
  const uuid = randomUUID();
  const fqdn = `${prefix}-${uuid.slice(0, 8)}.example.com`;
  await admin.createNode({ uuid, fqdn });
  return { uuid, fqdn };
}

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

interface LoadJson {
  measuredSeconds: number[];
  shape: { nodes: number; instances: number | null };
  pairs: { operation: string; caller_daemon: string; rate: number; calls: number; status: string; ceiling: number | null; seconds: number | null; share: number | null }[];
  exitCode: number;
}

describe('sf-ctl against a tier', () => {
  it('load: exit 0 on a quiet cluster', async () => {
    const r = await ctl(['--target', target, 'load', '--window', '1s', '--json']);
    expect(r.stderr).not.toMatch(/warning/);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as LoadJson;
    expect(report.pairs.filter((p) => p.status === 'OVER' || p.status === 'unbudgeted')).toEqual([]);
    expect(report.shape.instances).toBe(0);
  });

  it('status --json lists the replica, a node and a lease', async () => {
    const n = await node('status');
    await admin.nodeHeartbeat(n.uuid, {});
    await admin.setNodeDaemonState(n.uuid, 'net', 'RUNNING', 'row only');
    const lease = `sf-ctl-test/${randomUUID().slice(0, 8)}`;
    const { lease: held } = await admin.acquireLease(lease, 'holder-1', 60_000);
    const r = await ctl(['--target', target, 'status', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as {
      replicas: { id: string; live: boolean; metricsAddress: string; heartbeatAgeMs: number }[];
      nodes: { uuid: string; fqdn: string; live: boolean; heartbeatAgeMs: number; daemons: { daemon: string; state: string }[] }[];
      leases: { name: string; holder: string; token: string; expiresInMs: number }[];
    };
    expect(s.replicas).toContainEqual(expect.objectContaining({ id: t.config.replicaId, live: true, metricsAddress: `127.0.0.1:${t.tier.httpPort}` }));
    const listed = s.nodes.find((x) => x.uuid === n.uuid);
    expect(listed).toMatchObject({ fqdn: n.fqdn, live: true });
    expect(listed?.heartbeatAgeMs).toBeGreaterThanOrEqual(0);
    expect(listed?.daemons).toEqual([expect.objectContaining({ daemon: 'net', state: 'RUNNING' })]);
    const l = s.leases.find((x) => x.name === lease);
    expect(l).toMatchObject({ holder: 'holder-1', token: held.token });
    expect(l?.expiresInMs).toBeGreaterThan(50_000);

    const text = await ctl(['--target', target, 'status']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(n.fqdn);
    expect(text.stdout).toMatch(new RegExp(`${lease}\\s+holder-1\\s+${held.token}\\s+\\d+ s`));
  });

  it('load: rates match the tier’s own counters within 5 %', async () => {
    const n = await node('load');
    const cleaner = t.client({ callerDaemon: 'cleaner', cache: false, feed: false });
    const count = async (): Promise<number> => metricValue(await t.metrics(), 'database_requests_total', { operation: 'GetNode', caller_daemon: 'cleaner' });
    const spent = async (): Promise<number> => metricValue(await t.metrics(), 'database_request_query_seconds_total', { operation: 'GetNode', caller_daemon: 'cleaner' });
    const before = await count();
    const spentBefore = await spent();
    const first = stderrSays('again in');
    const run = ctl(['--target', target, 'load', '--window', '2s', '--json'], { onStderr: first.onStderr });
    await Promise.race([first.seen, run]); // the first scrape is done: the 40 calls fall inside the window
    for (let i = 0; i < 4; i++) await Promise.all(Array.from({ length: 10 }, () => cleaner.call('GetNode', { uuid: n.uuid })));
    const r = await run;
    const counted = (await count()) - before;
    expect(counted).toBe(40);
    const spentIn = (await spent()) - spentBefore;
    expect(spentIn).toBeGreaterThan(0);
    const report = JSON.parse(r.stdout) as LoadJson;
    const seconds = report.measuredSeconds[0] as number;
    expect(seconds).toBeGreaterThan(1.9);
    expect(seconds).toBeLessThan(3);
    const pair = report.pairs.find((p) => p.operation === 'GetNode' && p.caller_daemon === 'cleaner');
    expect(pair?.calls).toBe(counted);
    const expected = counted / seconds;
    expect(Math.abs((pair?.rate ?? 0) - expected) / expected).toBeLessThan(0.05);
    // Its MariaDB seconds are the tier's own counter's over the window, a share of all of them.
    expect(Math.abs((pair?.seconds ?? 0) * seconds - spentIn) / spentIn).toBeLessThan(1e-6);
    expect(pair?.share).toBeGreaterThan(0);
    expect(pair?.share).toBeLessThanOrEqual(1);
    // 20 calls/s of a budgeted pair is far over its ceiling.
    expect(pair?.status).toBe('OVER');
    expect(r.code).toBe(1);
    // sf-ctl's own call came before the window.
    expect(report.pairs.some((p) => p.caller_daemon === 'sf-ctl')).toBe(false);
  });

  it('load: exit 1 and OVER when a budgeted pair is driven past its ceiling', async () => {
    const n = await node('hard');
    const queues = t.client({ callerDaemon: 'queues', cache: false, feed: false });
    let running = true;
    const drive = (async () => {
      while (running) await queues.getNodeDaemonState(n.uuid, 'queues');
    })();
    const r = await ctl(['--target', target, 'load', '--window', '1s']);
    running = false;
    await drive;
    expect(r.code).toBe(1);
    // rate/s, expected, ceiling, db s/s, db share ('12 %'), db s ceiling, pool wait s/s, status.
    expect(r.stdout).toMatch(/GetNodeDaemonState\s+queues\s+\S+\s+\S+\s+\S+\s+\S+\s+(\S+ %|-)\s+\S+\s+\S+\s+OVER calls/);
    expect(r.stdout).toMatch(/pair\(s\) outside the budget: .*GetNodeDaemonState\/queues/);
  });

  it('stop-daemon stops a running daemon and reports STOPPED', async () => {
    const n = await node('stop');
    const db = t.client({ callerDaemon: 'agent', callerNode: n.uuid, cache: false });
    const daemon = new AgentDaemon({ name: 'agent', nodeUuid: n.uuid, db, settings: daemonSettings({}), log: pino({ level: 'silent' }) });
    await daemon.start();
    expect((await admin.getNodeDaemonState(n.uuid, 'agent'))?.state).toBe('RUNNING');
    const r = await ctl(['--target', target, 'stop-daemon', n.fqdn, 'agent', '--timeout', '20s', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ node: n.uuid, daemon: 'agent', state: 'STOPPED', via: 'feed' });
    expect(await daemon.done).toBe('operator');
    expect((await admin.getNodeDaemonState(n.uuid, 'agent'))?.state).toBe('STOPPED');

    const again = await ctl(['--target', target, 'stop-daemon', n.uuid, 'agent']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/already STOPPED/);
  });

  it('stop-daemon exits 1 when nothing acts on the stop within the timeout', async () => {
    const n = await node('ghost');
    await admin.setNodeDaemonState(n.uuid, 'ghost', 'RUNNING', 'no process behind this row');
    const r = await ctl(['--target', target, 'stop-daemon', n.uuid, 'ghost', '--timeout', '1s']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`sf-ctl: ghost on ${n.fqdn} (${n.uuid}) did not stop within 1s; last state STOPPING\n`);
  });

  it('the stop holds a daemon started again (status shows it) until start-daemon, which waits for RUNNING', async () => {
    const n = await node('hold');
    const db = t.client({ callerDaemon: 'agent', callerNode: n.uuid, cache: false });
    const log = pino({ level: 'silent' });
    const first = new AgentDaemon({ name: 'agent', nodeUuid: n.uuid, db, settings: daemonSettings({}), log });
    await first.start();
    const stop = await ctl(['--target', target, 'stop-daemon', n.uuid, 'agent']);
    expect(stop.code).toBe(0);
    expect(stop.stdout).toMatch(new RegExp(`^agent on ${n.fqdn} \\(${n.uuid}\\): STOPPED after .*; held stopped until \`sf-ctl start-daemon ${n.uuid} agent\`\n$`));
    expect(await first.done).toBe('operator');

    let seenHeld: () => void = () => {};
    const held = new Promise<void>((r) => (seenHeld = r));
    const second = new AgentDaemon({ name: 'agent', nodeUuid: n.uuid, db, settings: daemonSettings({}), log, hooks: { operatorHold: (h) => h && seenHeld() } });
    const starting = second.start();
    await held;
    expect(second.snapshot().state).toBe('held');
    const status = await ctl(['--target', target, 'status']);
    expect(status.stdout).toMatch(new RegExp(`${n.fqdn}\\s+agent\\s+STOPPED \\(held\\)\\s+\\S+ \\S+\\s+held stopped by an operator; a process waits`));

    const start = await ctl(['--target', target, 'start-daemon', n.fqdn, 'agent', '--timeout', '20s']);
    expect(start.stderr).toBe('');
    expect(start.code).toBe(0);
    expect(start.stdout).toMatch(new RegExp(`^agent on ${n.fqdn} \\(${n.uuid}\\): RUNNING after `));
    await starting;
    expect(second.snapshot().state).toBe('running');
    const again = await ctl(['--target', target, 'start-daemon', n.uuid, 'agent']);
    expect(again).toMatchObject({ code: 0, stdout: `agent on ${n.fqdn} (${n.uuid}) is already RUNNING\n` });
    await second.stop();
  });

  it('start-daemon exits 1 when no process records RUNNING (the hold is released), and for a daemon not held', async () => {
    const n = await node('ghost');
    await admin.setNodeDaemonState(n.uuid, 'ghost', 'STOPPED', 'no process behind this row', { operatorHold: 'set' });
    const r = await ctl(['--target', target, 'start-daemon', n.uuid, 'ghost', '--timeout', '1s']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`^sf-ctl: released the operator hold of ghost on ${n.fqdn} \\(${n.uuid}\\), but it did not record RUNNING within 1s; last state STARTING\\. It runs once its process starts`),
    );
    expect(await admin.getNodeDaemonState(n.uuid, 'ghost')).toMatchObject({ state: 'STARTING', operatorHold: false });
    const notHeld = await ctl(['--target', target, 'start-daemon', n.uuid, 'ghost']);
    expect(notHeld.code).toBe(1);
    expect(notHeld.stderr).toBe(`sf-ctl: ghost on ${n.fqdn} (${n.uuid}) is STARTING and not held by an operator stop: nothing to release; it starts with its process (systemd, its pod)\n`);
  });

  it('audit lists declared tasks against measured rates, for the tier and for a daemon endpoint', async () => {
    const n = await node('audit');
    const db = t.client({ callerDaemon: 'agent', callerNode: n.uuid, cache: false });
    const daemon = new AgentDaemon({ name: 'agent', nodeUuid: n.uuid, db, settings: daemonSettings({}), log: pino({ level: 'silent' }) });
    await daemon.start();
    const server = createServer((_req, res) => {
      void daemonRegistry.metrics().then((body) => res.end(body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const daemonMetrics = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const r = await ctl(['--target', target, 'audit', '--window', '1s', '--daemon-metrics', daemonMetrics, '--json']);
      expect(r.code).toBe(0);
      const a = JSON.parse(r.stdout) as {
        tierTasks: { task: string; source: string; declaredPerSecond: number; sourceMeasuredPerSecond: number }[];
        daemonTasks: { daemon: string; task: string; operation: string; declaredPerSecond: number | null }[];
      };
      const tail = a.tierTasks.find((x) => x.task === 'changefeed_tail');
      expect(tail?.source).toBe('changefeed');
      expect(tail?.declaredPerSecond).toBeCloseTo(1000 / t.config.changefeedTailMs);
      expect(a.tierTasks.find((x) => x.task === 'registry_heartbeat')?.source).toBe('registry');
      expect(a.daemonTasks).toContainEqual(expect.objectContaining({ daemon: 'agent', task: 'node-heartbeat', operation: 'NodeHeartbeat', declaredPerSecond: 0.1 }));
      expect(a.daemonTasks).toContainEqual(expect.objectContaining({ daemon: 'agent', task: 'change-feed-wait', operation: 'WaitForChanges' }));
    } finally {
      server.close();
      await daemon.stop();
    }
  });

  it('migrate runs sf-database migrate with this environment', async () => {
    const r = await ctl(['migrate'], { env: { SFDB_DATABASE_URL: t.databaseUrl, SFDB_LOG_LEVEL: 'warn' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('schema is current');
  });
});

describe('sf-ctl errors', () => {
  it('bad arguments exit 2 naming the flag and the accepted form', async () => {
    const window = await ctl(['--target', target, 'load', '--window', 'fast']);
    expect(window.code).toBe(2);
    expect(window.stderr).toBe('sf-ctl: --window: "fast" is not a duration such as 500ms, 30s, 2m\n');
    const budget = await ctl(['--target', target, 'load', '--budget', '/nonexistent/budget.json']);
    expect(budget.code).toBe(2);
    expect(budget.stderr).toMatch(/^sf-ctl: --budget: cannot use \/nonexistent\/budget\.json: .*expected feed, anchor or a budget JSON path\n$/);
    const node = await ctl(['--target', target, 'stop-daemon', 'nowhere.example.com', 'agent']);
    expect(node.code).toBe(2);
    expect(node.stderr).toMatch(/^sf-ctl: NODE: no node with fqdn "nowhere\.example\.com"/);
  });

  it('an unreachable target exits 3 with one line', async () => {
    const port = await closedPort();
    for (const args of [['status'], ['load', '--window', '1s'], ['stop-daemon', 'n.example.com', 'agent']]) {
      const r = await ctl(['--target', `127.0.0.1:${port}`, ...args]);
      expect(r.code, args.join(' ')).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^sf-ctl: cannot reach replica 127\\.0\\.0\\.1:${port} \\(UNAVAILABLE: [^\\n]+\\)\\n$`));
    }
  });

  it('a replica that goes away between the scrapes is named, exit 3', async () => {
    const server = createServer((_req, res) => res.end('database_requests_total{operation="GetNode",caller_daemon="cleaner"} 1\n'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const first = stderrSays('again in');
    const run = ctl(['--target', target, 'load', '--window', '2s', '--metrics', address], { onStderr: first.onStderr });
    await Promise.race([first.seen, run]);
    server.close();
    server.closeAllConnections();
    const r = await run;
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    const last = r.stderr.trimEnd().split('\n').at(-1) ?? '';
    expect(last.startsWith(`sf-ctl: ${address} at http://${address}/metrics went away between scrapes (`)).toBe(true);
  });

  it('a metrics endpoint that cannot be scraped exits 3 with one line', async () => {
    const port = await closedPort();
    const r = await ctl(['--target', target, 'load', '--window', '1s', '--metrics', `127.0.0.1:${port}`]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`^sf-ctl: cannot scrape 127\\.0\\.0\\.1:${port} at http://127\\.0\\.0\\.1:${port}/metrics \\(ECONNREFUSED\\)\\n$`));
  });
});
