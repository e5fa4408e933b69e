// SIGTERM lets an in-flight call finish, then the process exits 0.
import { randomUUID } from 'node:crypto';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import { spawnTier } from '../helpers/process.js';
import type { TierProcess } from '../helpers/process.js';
import { createTestDatabase, dropTestDatabase, mariadbUrl } from '../helpers/tier.js';

let database: string;
let tier: TierProcess | undefined;
const connections: mysql.Connection[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  tier?.kill('SIGKILL');
  for (const c of connections) c.destroy();
  await dropTestDatabase(database);
});

/**
 * Polls until a statement matching `pattern` has been running for a while: it can only
 * still run because it waits on the held row lock. (The process list, not INNODB_TRX: on
 * a loaded machine a statement waiting on a row lock was seen running for 20 s while
 * INNODB_TRX listed no LOCK WAIT for it.)
 */
async function waitForBlockedStatement(conn: mysql.Connection, pattern: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [rows] = await conn.query(
      `SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST
       WHERE COMMAND IN ('Query', 'Execute') AND INFO LIKE ? AND TIME_MS > 200`,
      [pattern],
    );
    if (Number((rows as { n: number }[])[0]?.n) > 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  const [trx] = await conn.query('SELECT trx_state, trx_query FROM information_schema.INNODB_TRX');
  throw new Error(`no statement like ${pattern} blocked within ${timeoutMs} ms; transactions: ${JSON.stringify(trx)}`);
}

describe('SIGTERM', () => {
  it('drains: the in-flight call completes, then the process exits 0', async () => {
    tier = spawnTier({ env: { SFDB_DATABASE_URL: mariadbUrl(database), SFDB_DRAIN_GRACE_MS: '20000' } });
    await tier.ready();
    const db = createClient({ targets: `127.0.0.1:${tier.grpcPort}`, callerDaemon: 'test', deadlineMs: 30_000 });
    const uuid = randomUUID();
    await db.createNode({ uuid, fqdn: `drain-${uuid.slice(0, 8)}.example.com` });

    // Hold the node's row lock so the UpdateNode below stays in flight inside the tier.
    const blocker = await mysql.createConnection(mariadbUrl(database));
    connections.push(blocker);
    await blocker.query('BEGIN');
    await blocker.query('SELECT uuid FROM nodes WHERE uuid = ? FOR UPDATE', [uuid]);
    const update = db.updateNode(uuid, { ipAddress: '10.1.2.3' });
    const observer = await mysql.createConnection(mariadbUrl(database));
    connections.push(observer);
    await waitForBlockedStatement(observer, 'UPDATE nodes%', 20_000);

    tier.kill('SIGTERM');
    // The process is draining, not gone: it cannot exit while the call is in flight.
    await expect(
      Promise.race([tier.exited.then(() => 'exited'), waitForLog(tier, 'draining').then(() => 'draining')]),
    ).resolves.toBe('draining');

    await blocker.query('COMMIT');
    const node = await update;
    expect(node.ipAddress).toBe('10.1.2.3');
    const { code, signal } = await tier.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(tier.stderr()).toContain('"msg":"stopped"');

    await blocker.end();
    await observer.end();
    db.close();
  });
});

async function waitForLog(p: TierProcess, text: string): Promise<void> {
  while (!p.stderr().includes(text)) await new Promise((r) => setTimeout(r, 20));
}
