// sf-daemon as a real process: SIGTERM and an operator stop both end it cleanly, the
// operator stop within the daemon-state poll interval plus one tick. An operator stop
// (sf-ctl stop-daemon) outlives the process: a new process for that node and daemon stays
// up, held, says so (stdout, log, /healthz, /readyz, metrics) and records no RUNNING, until
// sf-ctl start-daemon; then it runs — in feed mode and polling.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseClient } from '../../client/index.js';
import { HELD_MESSAGE } from '../../daemons/index.js';
import { freePort } from '../../server/embedded/mariadb.js';
import { recordFigure } from '../helpers/figures.js';
import { sfDaemon as startSfDaemon } from '../helpers/sf-daemon.js';
import type { SfDaemon } from '../helpers/sf-daemon.js';
import { runCtl } from '../helpers/sf-ctl.js';
import type { CtlRun } from '../helpers/sf-ctl.js';
import { metricValue, scrapeText } from '../../harness/scrape.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';
import { waitFor } from '../helpers/wait.js';

let t: TestTier;
let db: DatabaseClient;
const children: ChildProcess[] = [];

beforeAll(async () => {
  t = await startTestTier();
  db = t.client();
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await t.stop();
});

function sfDaemon(daemon: string, nodeUuid: string, opts: { env?: Record<string, string>; metricsPort?: number } = {}): SfDaemon {
  return startSfDaemon(`127.0.0.1:${t.tier.grpcPort}`, daemon, nodeUuid, { ...opts, children });
}

/** Runs sf-ctl against the tier. */
function ctl(args: string[]): Promise<CtlRun> {
  return runCtl(['--target', `127.0.0.1:${t.tier.grpcPort}`, ...args]);
}

async function http(port: number, path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, body: await res.text() };
}

async function node(): Promise<string> {
  const uuid = randomUUID();
  await db.createNode({ uuid, fqdn: `p-${uuid.slice(0, 8)}.example.com` });
  return uuid;
}

describe('sf-daemon process', () => {
  it('SIGTERM stops it cleanly: STOPPED recorded, exit 0', async () => {
    const nodeUuid = await node();
    const d = sfDaemon('queues', nodeUuid);
    await d.running();
    expect((await db.getNodeDaemonState(nodeUuid, 'queues'))?.state).toBe('RUNNING');
    const sentAt = Date.now();
    d.proc.kill('SIGTERM');
    const { code, at } = await d.exited;
    expect(code).toBe(0);
    expect((await db.getNodeDaemonState(nodeUuid, 'queues'))?.state).toBe('STOPPED');
    recordFigure('daemon-sigterm-exit', { exitMs: at - sentAt });
  });

  it('an operator stop is noticed within the poll interval plus one tick', async () => {
    const nodeUuid = await node();
    const d = sfDaemon('agent', nodeUuid);
    await d.running();
    const stoppedAt = Date.now();
    await db.setNodeDaemonState(nodeUuid, 'agent', 'STOPPING', 'operator');
    const { code, at } = await d.exited;
    expect(code).toBe(0);
    const noticeMs = at - stoppedAt;
    recordFigure('daemon-operator-stop', { pollMs: 2000, tickMs: 200, exitMs: noticeMs });
    // Poll interval + one tick, plus process exit and scheduling slack on a loaded machine.
    expect(noticeMs).toBeLessThanOrEqual(2000 + 200 + 1000);
    expect((await db.getNodeDaemonState(nodeUuid, 'agent'))?.state).toBe('STOPPED');
  });

  it('refuses to run for a node that does not exist', async () => {
    const d = sfDaemon('agent', randomUUID());
    const { code } = await d.exited;
    expect(code).toBe(1);
    expect(d.stderr()).toMatch(/node .* does not exist/);
  });
});

describe('an operator stop outlives the process', () => {
  it.each([
    ['feed', 'queues', {}],
    ['polling', 'agent', { SFDB_DAEMON_FEED: 'false' }],
  ] as const)('%s: a restarted daemon stays stopped, says so, and runs after sf-ctl start-daemon', async (_mode, daemon, env) => {
    const nodeUuid = await node();
    const first = sfDaemon(daemon, nodeUuid, { env });
    await first.running();
    const stop = await ctl(['stop-daemon', nodeUuid, daemon, '--json']);
    expect(stop.stderr).toBe('');
    expect(stop.code).toBe(0);
    expect(JSON.parse(stop.stdout)).toMatchObject({ state: 'STOPPED', operatorHold: true });
    expect((await first.exited).code).toBe(0);

    // The supervisor's restart: a new process for the same node and daemon.
    const port = await freePort();
    const second = sfDaemon(daemon, nodeUuid, { env, metricsPort: port });
    await second.says(`sf-daemon ${daemon} held stopped by an operator for node ${nodeUuid}: waiting for \`sf-ctl start-daemon ${nodeUuid} ${daemon}\``);
    expect(second.stdout()).not.toContain(' running for node ');
    // Its log says so, structured, with the command that starts it. Timing: the log is on
    // stderr, another pipe than the stdout line above, and can arrive after it (seen beside
    // two busy loops): waited for, bounded.
    let held: Record<string, unknown> | undefined;
    await waitFor('the held log line on stderr', 10_000, () => {
      held = second
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l['operatorHold'] === true);
      return { ok: held !== undefined, seen: second.stderr().slice(-2000) };
    });
    expect(held).toMatchObject({ daemon, node: nodeUuid, start: `sf-ctl start-daemon ${nodeUuid} ${daemon}` });
    expect(held?.['msg']).toMatch(/^held stopped by an operator: this daemon does not run until an operator starts it/);
    // It recorded STOPPED (a process waits), not RUNNING; the hold stands.
    expect(await db.getNodeDaemonState(nodeUuid, daemon)).toMatchObject({ state: 'STOPPED', message: HELD_MESSAGE, operatorHold: true });
    const health = await http(port, '/healthz');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ daemon, node: nodeUuid, state: 'held', operatorHold: true });
    expect((await http(port, '/readyz')).status).toBe(200);
    const heldMetrics = await scrapeText(port);
    expect(metricValue(heldMetrics, 'database_daemon_operator_hold', { daemon })).toBe(1);
    expect(metricValue(heldMetrics, 'database_daemon_loop_steps_total', { daemon })).toBe(0);

    const start = await ctl(['start-daemon', nodeUuid, daemon, '--json']);
    expect(start.stderr).toBe('');
    expect(start.code).toBe(0);
    expect(JSON.parse(start.stdout)).toMatchObject({ node: nodeUuid, daemon, state: 'RUNNING', via: 'feed' });
    await second.running();
    expect(await db.getNodeDaemonState(nodeUuid, daemon)).toMatchObject({ state: 'RUNNING', operatorHold: false });
    expect(JSON.parse((await http(port, '/healthz')).body)).toMatchObject({ state: 'running', operatorHold: false });
    expect(metricValue(await scrapeText(port), 'database_daemon_operator_hold', { daemon })).toBe(0);

    // A signal is not an operator stop: it ends the process and holds nothing.
    second.proc.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
    expect(await db.getNodeDaemonState(nodeUuid, daemon)).toMatchObject({ state: 'STOPPED', operatorHold: false });
  });

  it('a held process ends cleanly on SIGTERM, and the hold stays', async () => {
    const nodeUuid = await node();
    await db.setNodeDaemonState(nodeUuid, 'agent', 'STOPPED', 'sf-ctl stop-daemon', { operatorHold: 'set' });
    const d = sfDaemon('agent', nodeUuid);
    await d.says('held stopped by an operator');
    d.proc.kill('SIGTERM');
    expect((await d.exited).code).toBe(0);
    expect(d.stdout()).toContain('sf-daemon agent stopped (signal)');
    expect(await db.getNodeDaemonState(nodeUuid, 'agent')).toMatchObject({
      state: 'STOPPED',
      message: 'held stopped by an operator; its process ended',
      operatorHold: true,
    });
  });
});
