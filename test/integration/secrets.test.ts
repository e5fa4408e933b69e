// Secrets in static values: an object whose writer names secret keys is never put in the
// client cache (each read is an RPC, nothing stays after), and its secret never appears
// in change rows, error messages or the tier's log.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conflict, InvalidArgument, createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { StaticObjectCache } from '../../client/cache.js';
import { createLogger } from '../../proto/runtime/log.js';
import { Tier } from '../../server/tier.js';
import { metricValue } from '../../harness/scrape.js';
import { createTestDatabase, dropTestDatabase, mariadbUrl, testConfig } from '../helpers/tier.js';
import mysql from 'mysql2/promise';
import type { Connection } from 'mysql2/promise';

const SECRET = `hunter2-${randomUUID()}`;
let logText = '';
let tier: Tier;
let database: string;
let direct: Connection;
let cache: StaticObjectCache;
let db: DatabaseClient;

beforeAll(async () => {
  database = await createTestDatabase();
  // Everything the tier logs, at its most talkative level, kept for the end.
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logText += chunk.toString();
      done();
    },
  });
  tier = await Tier.start(testConfig({ SFDB_LOG_LEVEL: 'trace' }), mariadbUrl(database), createLogger('trace', {}, sink));
  direct = await mysql.createConnection({ uri: mariadbUrl(database) });
  cache = new StaticObjectCache({ immutableTtlMs: 300_000, upgradeableTtlMs: 30_000, capacity: 100 });
  db = createClient({ targets: `127.0.0.1:${tier.grpcPort}`, callerDaemon: 'test', cache, feed: false });
});

afterAll(async () => {
  db?.close();
  await direct?.end();
  await tier?.stop();
  await dropTestDatabase(database);
});

async function gets(): Promise<number> {
  return metricValue(await tier.metrics.registry.metrics(), 'database_requests_total', { operation: 'GetInstance', caller_daemon: 'test' });
}

describe('secret fields', () => {
  const secretUuid = randomUUID();
  const plainUuid = randomUUID();

  it('an object with secret fields is read by RPC every time and never cached', async () => {
    await db.createInstance({ uuid: secretUuid, staticValues: { name: 'vm', rootPassword: SECRET }, secretFields: ['rootPassword'] });
    const before = await gets();
    const first = await db.getInstance(secretUuid);
    const second = await db.getInstance(secretUuid);
    expect(first?.staticValues['rootPassword']).toBe(SECRET);
    expect(second?.secretFields).toEqual(['rootPassword']);
    expect((await gets()) - before).toBe(2);
    expect(cache.get('INSTANCE', secretUuid)).toBeUndefined();
    expect(cache.entryCount('immutable')).toBe(0);
  });

  it('an object without is cached as before (the control)', async () => {
    await db.createInstance({ uuid: plainUuid, staticValues: { name: 'plain' } });
    const before = await gets();
    await db.getInstance(plainUuid);
    await db.getInstance(plainUuid);
    expect((await gets()) - before).toBe(1);
    expect(cache.get('INSTANCE', plainUuid)).toBeDefined();
  });

  it('a secret field must be a key of the static values; nothing is written otherwise', async () => {
    const uuid = randomUUID();
    const err = await db.createInstance({ uuid, staticValues: { name: 'x', token: SECRET }, secretFields: ['tokne'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidArgument);
    expect((err as InvalidArgument).field).toBe('secret_fields[0]');
    expect((err as Error).message).not.toContain(SECRET);
    const [rows] = await direct.query('SELECT COUNT(*) AS n FROM object_values WHERE uuid = ?', [uuid]);
    expect(Number((rows as { n: string }[])[0]?.n)).toBe(0);
  });

  it('a retried create with the same secret fields is the same object; other fields conflict without echoing values', async () => {
    const again = await db.createInstance({ uuid: secretUuid, staticValues: { name: 'vm', rootPassword: SECRET }, secretFields: ['rootPassword'] });
    expect(again.created).toBe(false);
    const err = await db.createInstance({ uuid: secretUuid, staticValues: { name: 'vm', rootPassword: SECRET }, secretFields: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Conflict);
    expect((err as Error).message).not.toContain(SECRET);
  });

  it('an update sets the new secret list; a blob with secrets is not cached either', async () => {
    const uuid = randomUUID();
    await db.createBlob({ uuid, staticValues: { url: 'https://example.test/a' } });
    await db.getBlob(uuid);
    expect(cache.get('BLOB', uuid)).toBeDefined();
    const updated = await db.updateBlob(uuid, { url: 'https://example.test/a', signingKey: SECRET }, { secretFields: ['signingKey'] });
    expect(updated.secretFields).toEqual(['signingKey']);
    expect((await db.getBlob(uuid))?.staticValues['signingKey']).toBe(SECRET);
    expect(cache.get('BLOB', uuid)).toBeUndefined();
  });

  it('no change row, and no line of the log, carries the secret', async () => {
    const [rows] = await direct.query('SELECT topic, object_type, object_id, kind FROM changes');
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    expect(logText.length).toBeGreaterThan(0);
    expect(logText).not.toContain(SECRET);
  });
});
