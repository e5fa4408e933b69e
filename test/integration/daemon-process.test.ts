// sf-daemon as a real process: SIGTERM and an operator stop both end it cleanly, the
// operator stop within the daemon-state poll interval plus one tick.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseClient } from '../../client/index.js';
import { recordFigure } from '../helpers/figures.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

let t: TestTier;
let db: DatabaseClient;
const children: ReturnType<typeof spawn>[] = [];

beforeAll(async () => {
  t = await startTestTier();
  db = t.client();
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await t.stop();
});

function sfDaemon(daemon: string, nodeUuid: string) {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'daemons/main.ts', '--daemon', daemon, '--node', nodeUuid], {
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', SFDB_TARGETS: `127.0.0.1:${t.tier.grpcPort}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(proc);
  let out = '';
  let err = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => proc.once('exit', (code) => resolve({ code, at: Date.now() })));
  return {
    proc,
    exited,
    stderr: () => err,
    async running(): Promise<void> {
      for (const deadline = Date.now() + 30_000; !out.includes(' running for node '); ) {
        if (Date.now() > deadline) throw new Error(`sf-daemon did not start: ${err}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
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
