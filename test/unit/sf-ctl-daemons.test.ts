// sf-ctl's daemon commands and status report, against scripted clients: status, stop-daemon
// without the change feed, start-daemon and the operator hold.
import { describe, expect, it } from 'vitest';
import type { ClusterStatus } from '../../client/index.js';
import { EXIT } from '../../ops/ctl/cli.js';
import type { Io } from '../../ops/ctl/cli.js';
import { main } from '../../ops/ctl/ctl.js';
import { buildStatus, renderStatus } from '../../ops/ctl/status.js';
import { startDaemon, startLine } from '../../ops/ctl/start-daemon.js';
import { stopDaemon, stopLine } from '../../ops/ctl/stop-daemon.js';
import type { StopDb } from '../../ops/ctl/stop-daemon.js';



describe('status report', () => {
  it('ages by database time, in ms for --json and readable in the table', () => {
    const cluster = {
      databaseTime: '2026-01-01T00:01:00.000000Z',
      replicas: [{ replicaId: 'r1', address: '127.0.0.1:13005', metricsAddress: '127.0.0.1:13006', startedAt: '2026-01-01T00:00:00.000000Z', heartbeatAgeMs: '4200', live: true }],
      nodes: [
        { nodeUuid: '00000000-0000-4000-8000-000000000001', fqdn: 'n1.test', heartbeatAgeMs: '180000', live: false, stats: '' },
        { nodeUuid: '00000000-0000-4000-8000-000000000002', fqdn: 'n2.test', heartbeatAgeMs: '-1', live: false, stats: '' },
      ],
    } as ClusterStatus;
    const daemons = [
      [
        { nodeUuid: '00000000-0000-4000-8000-000000000001', daemon: 'agent', state: 'RUNNING' as const, message: '', updatedAt: '2026-01-01T00:00:55.800000Z', operatorHold: false },
        { nodeUuid: '00000000-0000-4000-8000-000000000001', daemon: 'queues', state: 'STOPPED' as const, message: 'held', updatedAt: '2026-01-01T00:00:55.800000Z', operatorHold: true },
      ],
      [],
    ];
    const leases = [{ name: 'maintenance', holder: 'cluster@n1', token: '7', expiresAt: '2026-01-01T00:01:30.000000Z', remainingMs: '30000' }];
    const stuck = [
      {
        item: { id: 'i1', nodeUuid: 'n', queue: 'jobs', payload: '', state: 'CLAIMED' as const, epoch: '2', attempts: 1, createdAt: '', updatedAt: '', result: '', message: '', claimHolder: 'queues@n1/42', claimExpiresAt: '2026-01-01T00:00:50.000000Z', notBefore: '' },
        epoch: '2',
        holder: 'queues@n1/42',
        leaseExpiresAt: '2026-01-01T00:00:50.000000Z',
      },
    ];
    const r = buildStatus(cluster, daemons, leases, stuck);
    expect(r.replicas[0]?.heartbeatAgeMs).toBe(4200);
    expect(r.nodes[1]?.heartbeatAgeMs).toBeNull();
    expect(r.nodes[0]?.daemons[0]?.ageMs).toBe(4200);
    expect(r.leases[0]?.expiresInMs).toBe(30_000);
    expect(r.stuckClaims[0]).toMatchObject({ queue: 'jobs', item: 'i1', owner: 'queues@n1/42', ageMs: 10_000 });
    const text = renderStatus(r);
    expect(text).toMatch(/r1\s+127\.0\.0\.1:13005\s+127\.0\.0\.1:13006\s+live\s+4\.2 s/);
    expect(text).toMatch(/n1\.test\s+\S+\s+stale\s+3 min/);
    expect(text).toMatch(/n2\.test\s+\S+\s+stale\s+never/);
    expect(text).toMatch(/maintenance\s+cluster@n1\s+7\s+30 s/);
    expect(text).toMatch(/jobs\s+i1\s+queues@n1\/42\s+10 s/);
    expect(r.nodes[0]?.daemons[1]).toMatchObject({ daemon: 'queues', state: 'STOPPED', operatorHold: true });
    expect(text).toMatch(/n1\.test\s+queues\s+STOPPED \(held\)\s+4\.2 s\s+held/);
    expect(text).toMatch(/n1\.test\s+agent\s+RUNNING\s+4\.2 s/);
  });
});

describe('stop-daemon without the change feed', () => {
  it('re-reads the state until STOPPED when WaitForChanges is unavailable', async () => {
    const uuid = '00000000-0000-4000-8000-000000000009';
    const node = { uuid, fqdn: 'n9.test', ipAddress: '', version: '1', createdAt: '', updatedAt: '' };
    const states = ['RUNNING', 'STOPPING', 'STOPPING', 'STOPPED'];
    let reads = 0;
    const written: string[] = [];
    const db = {
      getNode: async () => node,
      getNodeByFqdn: async () => node,
      getNodeDaemonState: async () => ({ nodeUuid: uuid, daemon: 'agent', state: states[Math.min(reads++, states.length - 1)], message: '', updatedAt: '' }),
      setNodeDaemonState: async (_n: string, _d: string, state: string) => void written.push(state),
      waitForChanges: async () => {
        throw new Error('UNIMPLEMENTED');
      },
    } as unknown as StopDb;
    const r = await stopDaemon(db, uuid, 'agent', 5000, 5);
    expect(r).toMatchObject({ state: 'STOPPED', via: 'poll', fqdn: 'n9.test' });
    expect(written).toEqual(['STOPPING']);
    expect(reads).toBe(4);
  });
});

describe('start-daemon and the operator hold, against a scripted client', () => {
  const uuid = '00000000-0000-4000-8000-000000000009';
  const node = { uuid, fqdn: 'n9.test', ipAddress: '', version: '1', createdAt: '', updatedAt: '' };
  /** Answers the states in turn (the last repeats); records what is written, with its hold change. */
  function scripted(states: { state: string; operatorHold: boolean }[]) {
    let reads = 0;
    const written: string[] = [];
    const db = {
      getNode: async () => node,
      getNodeByFqdn: async () => node,
      getNodeDaemonState: async () => ({ nodeUuid: uuid, daemon: 'agent', message: '', updatedAt: '', ...states[Math.min(reads++, states.length - 1)] }),
      setNodeDaemonState: async (_n: string, _d: string, state: string, _m: string, opts?: { operatorHold?: string }) =>
        void written.push(`${state}/${opts?.operatorHold ?? 'unchanged'}`),
      waitForChanges: async () => {
        throw new Error('UNIMPLEMENTED');
      },
    } as unknown as StopDb;
    return { db, written, reads: () => reads };
  }

  it('releases the hold with STARTING and re-reads until RUNNING when WaitForChanges is unavailable', async () => {
    const s = scripted([
      { state: 'STOPPED', operatorHold: true },
      { state: 'STARTING', operatorHold: false },
      { state: 'RUNNING', operatorHold: false },
    ]);
    const r = await startDaemon(s.db, uuid, 'agent', 5000, 5);
    expect(r).toMatchObject({ node: uuid, fqdn: 'n9.test', daemon: 'agent', state: 'RUNNING', via: 'poll' });
    expect(s.written).toEqual(['STARTING/release']);
    expect(s.reads()).toBe(3);
    expect(startLine(r)).toMatch(/^agent on n9\.test \(0{8}-0{4}-4000-8000-0{11}9\): RUNNING after /);
  });

  it('leaves a running daemon that is not held as it is, and refuses one that is not held and not running', async () => {
    const running = scripted([{ state: 'RUNNING', operatorHold: false }]);
    const r = await startDaemon(running.db, uuid, 'agent', 5000, 5);
    expect(r).toMatchObject({ state: 'RUNNING', via: 'already' });
    expect(running.written).toEqual([]);
    expect(startLine(r)).toBe(`agent on n9.test (${uuid}) is already RUNNING\n`);

    const exited = scripted([{ state: 'STOPPED', operatorHold: false }]);
    const err = await startDaemon(exited.db, uuid, 'agent', 5000, 5).then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ exitCode: EXIT.failed });
    expect((err as Error).message).toBe(
      `agent on n9.test (${uuid}) is STOPPED and not held by an operator stop: nothing to release; it starts with its process (systemd, its pod)`,
    );
    expect(exited.written).toEqual([]);
  });

  it('times out (exit 1) when no process records RUNNING, saying the hold is released', async () => {
    const s = scripted([
      { state: 'STOPPED', operatorHold: true },
      { state: 'STARTING', operatorHold: false },
    ]);
    const err = await startDaemon(s.db, uuid, 'agent', 1000, 5).then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ exitCode: EXIT.failed });
    expect((err as Error).message).toMatch(/^released the operator hold of agent on n9\.test \(.*\), but it did not record RUNNING within 1s; last state STARTING\. It runs once its process starts/);
  });

  it('stop-daemon holds the daemon with STOPPING; one already STOPPED is held without waiting', async () => {
    const running = scripted([
      { state: 'RUNNING', operatorHold: false },
      { state: 'STOPPED', operatorHold: true },
    ]);
    const r = await stopDaemon(running.db, uuid, 'agent', 5000, 5);
    expect(running.written).toEqual(['STOPPING/set']);
    expect(r).toMatchObject({ state: 'STOPPED', operatorHold: true });
    expect(stopLine(r)).toMatch(/STOPPED after .*; held stopped until `sf-ctl start-daemon 0{8}-0{4}-4000-8000-0{11}9 agent`\n$/);

    const exited = scripted([{ state: 'STOPPED', operatorHold: false }]);
    expect(await stopDaemon(exited.db, uuid, 'agent', 5000, 5)).toMatchObject({ state: 'STOPPED', via: 'already', operatorHold: true });
    expect(exited.written).toEqual(['STOPPED/set']);

    const held = scripted([{ state: 'STOPPED', operatorHold: true }]);
    expect(await stopDaemon(held.db, uuid, 'agent', 5000, 5)).toMatchObject({ via: 'already' });
    expect(held.written).toEqual([]);
  });

  it('start-daemon --help gives the exit codes and what it releases', async () => {
    let out = '';
    const io: Io = { out: (t) => (out += t), note: () => {}, env: {} };
    expect(await main(['start-daemon', '--help'], io)).toBe(EXIT.ok);
    expect(out).toMatch(/usage: sf-ctl start-daemon NODE DAEMON \[--timeout 30s\] \[--json\]/);
    expect(out).toMatch(/exit: 0 RUNNING, 1 not RUNNING within the timeout/);
    out = '';
    expect(await main(['--help'], io)).toBe(EXIT.ok);
    expect(out).toMatch(/ {2}start-daemon {2}operator start: releases an operator stop/);
  });
});
