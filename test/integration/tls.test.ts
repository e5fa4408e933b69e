// mTLS with real certificates (scripts/dev-ca.sh, openssl): a node's certificate lets it
// call as that node and no other; an expired certificate, one from another CA, and a
// plaintext client are refused at the handshake; replica-only RPCs need a replica's
// certificate; two replicas poke each other over TLS.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailable, createClient } from '../../client/index.js';
import type { ClientTls, DatabaseClient } from '../../client/index.js';
import { loadDatabaseProto } from '../../proto/load.js';
import { metricValue } from '../../harness/scrape.js';
import { devCa, permissionDenied } from '../helpers/mtls.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

const dir = mkdtempSync(join(tmpdir(), 'sfdb-tls-'));
const other = join(dir, 'other-ca');
const NODE = randomUUID();
const NODE_B = randomUUID();
const EXPIRED_NODE = randomUUID();


function material(caDir: string, name: string): ClientTls {
  return { ca: readFileSync(join(dir, 'ca.crt')), cert: readFileSync(join(caDir, `${name}.crt`)), key: readFileSync(join(caDir, `${name}.key`)) };
}

const env = (replica: string): Record<string, string> => ({
  SFDB_TLS_CA: join(dir, 'ca.crt'),
  SFDB_TLS_CERT: join(dir, `replica-${replica}.crt`),
  SFDB_TLS_KEY: join(dir, `replica-${replica}.key`),
  SFDB_REPLICA_ID: replica,
});

let t: TestTier;
const clients: DatabaseClient[] = [];

function client(tls: ClientTls | false, callerNode = '', callerDaemon = 'net'): DatabaseClient {
  const c = createClient({ targets: `127.0.0.1:${t.tier.grpcPort}`, callerDaemon, callerNode, tls, maxAttempts: 1, deadlineMs: 3000, cache: false, feed: false });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  devCa(dir, ['ca']);
  devCa(dir, ['replica', 'tls-r1']);
  devCa(dir, ['replica', 'tls-r2']);
  devCa(dir, ['node', NODE]);
  devCa(dir, ['node', NODE_B]);
  devCa(dir, ['operator', 'ops']);
  devCa(dir, ['node', EXPIRED_NODE], { EXPIRED: '1' });
  devCa(other, ['ca']);
  devCa(other, ['node', NODE]);
  t = await startTestTier({ env: env('tls-r1') });
});

afterAll(async () => {
  for (const c of clients) c.close();
  await t?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('mTLS', () => {
  it("a node's certificate calls as that node", async () => {
    const db = client(material(dir, `node-${NODE}`), NODE);
    await db.createNode({ uuid: NODE, fqdn: `tls-${NODE}.test` });
    expect((await db.getNode(NODE))?.uuid).toBe(NODE);
  });

  it('claiming another node, or none, is PERMISSION_DENIED, counted', async () => {
    const before = await t.metrics();
    const err = await permissionDenied(client(material(dir, `node-${NODE}`), NODE_B).getNode(NODE));
    expect(err.message).toMatch(new RegExp(`x-sfdb-caller-node: must be ${NODE}, the node of the client certificate`));
    await permissionDenied(client(material(dir, `node-${NODE}`), '').getNode(NODE));
    const after = await t.metrics();
    const delta = metricValue(after, 'database_permission_denied_total', { reason: 'node_mismatch' }) - metricValue(before, 'database_permission_denied_total', { reason: 'node_mismatch' });
    expect(delta).toBe(2);
  });

  it("an operator's certificate calls without a node; claiming one is refused", async () => {
    expect((await client(material(dir, 'operator-ops'), '', 'sf-ctl').getClusterStatus()).replicas.length).toBeGreaterThan(0);
    await permissionDenied(client(material(dir, 'operator-ops'), NODE, 'sf-ctl').getClusterStatus());
  });

  it('an expired certificate, another CA, and plaintext are refused at the handshake', async () => {
    for (const db of [client(material(dir, `node-${EXPIRED_NODE}`), EXPIRED_NODE), client(material(other, `node-${NODE}`), NODE), client(false, NODE)]) {
      const err = await db.getNode(NODE).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DatabaseUnavailable);
    }
  });

  it("PokeChanges needs a replica's certificate", async () => {
    const tls = material(dir, `node-${NODE}`);
    const raw = new grpc.Client(`127.0.0.1:${t.tier.grpcPort}`, grpc.credentials.createSsl(tls.ca, tls.key, tls.cert));
    const def = loadDatabaseProto().proto.sfdb.v1.Database.service.PokeChanges;
    const md = new grpc.Metadata();
    md.set('x-sfdb-caller-node', NODE);
    const err = await new Promise<grpc.ServiceError | null>((resolve) =>
      raw.makeUnaryRequest(def.path, def.requestSerialize, def.responseDeserialize, { replicaId: 'x', ownerToken: 'y', topics: [] }, md, (e) => resolve(e)),
    );
    raw.close();
    expect(err?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(err?.details).toMatch(/PokeChanges: only a tier replica's certificate may call it/);
  });

  it('two replicas poke each other over TLS: a write on one wakes a waiter on the other', async () => {
    const second = await startTestTier({ database: t.database, env: env('tls-r2') });
    try {
      const tls = material(dir, `node-${NODE}`);
      const onSecond = createClient({ targets: `127.0.0.1:${second.tier.grpcPort}`, callerDaemon: 'net', callerNode: NODE, tls, cache: false, feed: false });
      const onFirst = client(tls, NODE);
      clients.push(onSecond);
      // The new replica read the live peers at its start: its commits poke the first, which
      // accepts them once it has re-read the registry (an unknown sender makes it re-read,
      // at most once a second): write until one is received (bounded).
      const received = async (): Promise<number> => metricValue(await t.metrics(), 'database_changefeed_pokes_total', { direction: 'received', outcome: 'ok' });
      const deadline = Date.now() + 15_000;
      while ((await received()) === 0) {
        if (Date.now() > deadline) throw new Error('no poke from the second replica was accepted within 15 s');
        await onSecond.setClusterConfig(`warm-${randomUUID()}`, 1);
        await new Promise((r) => setTimeout(r, 200));
      }
      const topic = 'cluster-config';
      const start = await onFirst.waitForChanges({ topics: [topic], cursor: '', timeoutMs: 1 });
      const before = await received();
      const waiting = onFirst.waitForChanges({ topics: [topic], cursor: start.cursor, timeoutMs: 20_000 });
      await onSecond.setClusterConfig(`k-${randomUUID()}`, 1);
      expect((await waiting).changes.length).toBeGreaterThan(0);
      expect(await received()).toBeGreaterThan(before);
    } finally {
      await second.stop();
    }
  });
});
