// With mTLS (real certificates: scripts/dev-ca.sh, openssl), an operator hold is set and
// released by an operator's certificate only (server/grpc/tls.ts REQUEST_RULES): a node's
// certificate that tries — as a daemon lifting its own stop would — is PERMISSION_DENIED,
// counted, with nothing written; it reports its own daemons' states and no other node's.
// End to end: sf-daemon runs with its node's certificate and sf-ctl with an operator's;
// an operator stop holds a restarted daemon until sf-ctl start-daemon, every write of the
// daemon framework accepted, and sf-ctl with a node's certificate is refused.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import type { ClientTls, DatabaseClient } from '../../client/index.js';
import { metricValue } from '../../harness/scrape.js';
import { devCa, permissionDenied } from '../helpers/mtls.js';
import { runCtl } from '../helpers/sf-ctl.js';
import { sfDaemon as startSfDaemon } from '../helpers/sf-daemon.js';
import type { SfDaemon } from '../helpers/sf-daemon.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

const dir = mkdtempSync(join(tmpdir(), 'sfdb-hold-tls-'));
const NODE = randomUUID();
const OTHER = randomUUID();


/** The three settings of a client with certificate `name` (node-<uuid>, operator-ops). */
const tlsEnv = (name: string): Record<string, string> => ({
  SFDB_TLS_CA: join(dir, 'ca.crt'),
  SFDB_TLS_CERT: join(dir, `${name}.crt`),
  SFDB_TLS_KEY: join(dir, `${name}.key`),
});

function material(name: string): ClientTls {
  const env = tlsEnv(name);
  return { ca: readFileSync(env.SFDB_TLS_CA as string), cert: readFileSync(env.SFDB_TLS_CERT as string), key: readFileSync(env.SFDB_TLS_KEY as string) };
}

let t: TestTier;
const clients: DatabaseClient[] = [];
const children: ChildProcess[] = [];

function client(name: string, callerNode: string, callerDaemon: string): DatabaseClient {
  const c = createClient({ targets: `127.0.0.1:${t.tier.grpcPort}`, callerDaemon, callerNode, tls: material(name), maxAttempts: 1, deadlineMs: 5000, cache: false, feed: false });
  clients.push(c);
  return c;
}

let operator: DatabaseClient;
let asNode: DatabaseClient;

beforeAll(async () => {
  devCa(dir, ['ca']);
  devCa(dir, ['replica', 'hold-r1']);
  devCa(dir, ['node', NODE]);
  devCa(dir, ['operator', 'ops']);
  t = await startTestTier({ env: { ...tlsEnv('replica-hold-r1'), SFDB_REPLICA_ID: 'hold-r1' } });
  operator = client('operator-ops', '', 'sf-ctl');
  asNode = client(`node-${NODE}`, NODE, 'queues');
  await operator.createNode({ uuid: NODE, fqdn: `hold-${NODE}.test` });
  await operator.createNode({ uuid: OTHER, fqdn: `hold-${OTHER}.test` });
});

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  for (const c of clients) c.close();
  await t?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The row as stored, read past the tier. */
async function row(node: string, daemon: string): Promise<unknown> {
  const [rows] = await t.direct.query('SELECT state, message, operator_hold FROM node_daemon_states WHERE node_uuid = ? AND daemon = ?', [node, daemon]);
  return (rows as unknown[])[0];
}

const denied = async (reason: string): Promise<number> => metricValue(await t.metrics(), 'database_permission_denied_total', { reason });

describe('operator holds with mTLS', () => {
  it("a node's certificate cannot set or release a hold: PERMISSION_DENIED, counted, nothing written", async () => {
    await operator.setNodeDaemonState(NODE, 'queues', 'STOPPED', 'sf-ctl stop-daemon', { operatorHold: 'set' });
    const held = await row(NODE, 'queues');
    expect(held).toMatchObject({ state: 'STOPPED', operator_hold: 1 });
    const before = await denied('operator_only');

    // The report: STARTING with operator_hold=RELEASE, sent with the node's own identity.
    const err = await permissionDenied(asNode.setNodeDaemonState(NODE, 'queues', 'STARTING', 'start', { operatorHold: 'release' }));
    expect(err.message).toMatch(/operator_hold: only an operator's certificate \(sfdb:\/\/operator\/<name>\) may set or release it; this call's is a node's/);
    await permissionDenied(asNode.setNodeDaemonState(NODE, 'queues', 'STOPPED', 'x', { operatorHold: 'set' }));
    expect(await row(NODE, 'queues')).toEqual(held);
    // The held daemon's RUNNING is refused as ever (FAILED_PRECONDITION), its own STOPPED accepted with the hold kept.
    await expect(asNode.setNodeDaemonState(NODE, 'queues', 'RUNNING')).rejects.toMatchObject({ code: grpc.status.FAILED_PRECONDITION });
    expect(await asNode.setNodeDaemonState(NODE, 'queues', 'STOPPED', 'own report')).toMatchObject({ state: 'STOPPED', operatorHold: true });
    expect(await denied('operator_only')).toBe(before + 2);

    // The operator's certificate releases it.
    expect(await operator.setNodeDaemonState(NODE, 'queues', 'STARTING', 'sf-ctl start-daemon', { operatorHold: 'release' })).toMatchObject({ operatorHold: false });
    expect(await asNode.setNodeDaemonState(NODE, 'queues', 'RUNNING')).toMatchObject({ state: 'RUNNING', operatorHold: false });
  });

  it("a node's certificate reports its own node's daemons only", async () => {
    const before = await denied('node_mismatch');
    const err = await permissionDenied(asNode.setNodeDaemonState(OTHER, 'queues', 'RUNNING'));
    expect(err.message).toMatch(new RegExp(`node_uuid: a node's certificate writes its own node's rows only: must be ${NODE}`));
    expect(await row(OTHER, 'queues')).toBeUndefined();
    expect(await denied('node_mismatch')).toBe(before + 1);
  });
});

/** sf-daemon with the node's certificate. */
const sfDaemon = (daemon: string): SfDaemon => startSfDaemon(`127.0.0.1:${t.tier.grpcPort}`, daemon, NODE, { env: tlsEnv(`node-${NODE}`), children });

const ctl = (as: string, args: string[]) => runCtl(['--target', `127.0.0.1:${t.tier.grpcPort}`, ...args], { env: tlsEnv(as) });

describe('sf-daemon with its node certificate, sf-ctl with an operator certificate', () => {
  it('an operator stop holds the restarted daemon until sf-ctl start-daemon; sf-ctl with a node certificate is refused', async () => {
    const daemon = 'agent';
    const first = sfDaemon(daemon);
    await first.running();
    const stop = await ctl('operator-ops', ['stop-daemon', NODE, daemon, '--json']);
    expect(stop.code, stop.stderr).toBe(0);
    // sf-ctl reached the tier by IP over mTLS, the replica's certificate checked against
    // 127.0.0.1, without an IP address as the TLS server name (Node's DEP0123 warning).
    expect(stop.stderr).not.toMatch(/DEP0123|TLS ServerName to an IP address/);
    expect(JSON.parse(stop.stdout)).toMatchObject({ state: 'STOPPED', operatorHold: true });
    expect((await first.exited).code).toBe(0);

    const second = sfDaemon(daemon);
    await second.says(`held stopped by an operator for node ${NODE}`);
    expect(await row(NODE, daemon)).toMatchObject({ state: 'STOPPED', operator_hold: 1 });

    // With the node's certificate sf-ctl cannot release it (exit 1, the tier's refusal said):
    // sf-ctl claims no node, which a node's certificate refuses before the hold rule would.
    const asNodeCtl = await ctl(`node-${NODE}`, ['start-daemon', NODE, daemon]);
    expect(asNodeCtl.code).toBe(1);
    expect(asNodeCtl.stderr).toMatch(/PERMISSION_DENIED: x-sfdb-caller-node: must be/);
    expect(await row(NODE, daemon)).toMatchObject({ state: 'STOPPED', operator_hold: 1 });

    const start = await ctl('operator-ops', ['start-daemon', NODE, daemon, '--json']);
    expect(start.code, start.stderr).toBe(0);
    expect(JSON.parse(start.stdout)).toMatchObject({ node: NODE, daemon, state: 'RUNNING' });
    await second.running();
    second.proc.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
    expect(await row(NODE, daemon)).toMatchObject({ state: 'STOPPED', operator_hold: 0 });
  });
});
