// What each call costs MariaDB, against a real one: every statement's seconds are charged
// to its call's (operation, caller daemon) or to the tier's own, and add up to the
// statement seconds by source; every statement names its sender in an sqlcommenter
// comment that MariaDB's general log and processlist show; a statement over the slow
// threshold is counted and logged with its sender and the query function that sent it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mysql from 'mysql2/promise';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { createLogger } from '../../proto/runtime/log.js';
import { Tier } from '../../server/tier.js';
import { metricSum, metricValue } from '../../harness/scrape.js';
import { createTestDatabase, dropTestDatabase, mariadbUrl, testConfig } from '../helpers/tier.js';
import { generalLog } from '../helpers/general-log.js';
import { waitFor } from '../helpers/wait.js';

const SLOW_MS = 150;
const NODE = randomUUID();
let logText = '';
let tier: Tier;
let database: string;
let direct: Connection;
let db: DatabaseClient;

beforeAll(async () => {
  database = await createTestDatabase();
  // Every line the tier logs, kept for the slow-statement test.
  const sink = { write: (line: string): void => void (logText += line) };
  tier = await Tier.start(testConfig({ SFDB_SLOW_STATEMENT_MS: String(SLOW_MS) }), mariadbUrl(database), createLogger('info', {}, sink));
  direct = await mysql.createConnection({ uri: mariadbUrl(database) });
  db = createClient({ targets: `127.0.0.1:${tier.grpcPort}`, callerDaemon: 'net', callerNode: NODE, feed: false });
});

afterAll(async () => {
  db?.close();
  await direct?.end();
  await tier?.stop();
  await dropTestDatabase(database);
});

const scrape = (): Promise<string> => tier.metrics.registry.metrics();

describe('database seconds by caller', () => {
  it('charges each call’s statements to its (operation, caller) and the tier’s own to sf-database; the pairs add up to the statement seconds', async () => {
    const uuid = randomUUID();
    await db.createInstance({ uuid, staticValues: { name: 'vm' } });
    for (let i = 0; i < 5; i++) await db.getInstance(uuid);
    const text = await scrape();
    expect(metricValue(text, 'database_request_query_seconds_total', { operation: 'GetInstance', caller_daemon: 'net' })).toBeGreaterThan(0);
    expect(metricValue(text, 'database_request_query_seconds_total', { operation: 'CreateInstance', caller_daemon: 'net' })).toBeGreaterThan(0);
    // The feed's tail and the registry's heartbeat are the tier's own.
    expect(metricValue(text, 'database_request_query_seconds_total', { operation: 'registry', caller_daemon: 'sf-database' })).toBeGreaterThan(0);
    const byCaller = metricSum(text, 'database_request_query_seconds_total');
    const bySource = metricSum(text, 'database_query_seconds_total');
    expect(bySource).toBeGreaterThan(0);
    expect(Math.abs(byCaller - bySource) / bySource).toBeLessThan(0.01);
  });
});

describe('statements name their sender to MariaDB', () => {
  it('the general log shows each statement of a call with its operation and caller', async () => {
    const uuid = randomUUID();
    await db.createInstance({ uuid, staticValues: { name: 'logged' } });
    const logged = await generalLog(direct, async () => {
      await db.getInstance(uuid);
    });
    // MariaDB writes an Execute's parameters into the log only for statements prepared while
    // it was on: this one was prepared before (the first test), so it is found by its text.
    const executed = logged.filter((r) => r.command === 'Execute' && /FROM object_values WHERE object_type = .* AND uuid = /.test(r.argument)).map((r) => r.argument);
    expect(executed.length).toBeGreaterThan(0);
    expect(executed).toContainEqual(expect.stringMatching(/ \/\*caller='net',operation='GetInstance'\*\/$/));
  });

  it('a statement held by a lock is seen in the processlist with its sender, then counted and logged as slow, naming its query function', async () => {
    const uuid = randomUUID();
    await db.createInstance({ uuid, staticValues: { name: 'locked' } });
    const locker = await mysql.createConnection({ uri: mariadbUrl(database) });
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT uuid FROM object_values WHERE uuid = ? FOR UPDATE', [uuid]);
      const write = db.setObjectState('INSTANCE', uuid, 'CREATED');
      // Held until MariaDB has kept it past the threshold: seen in the processlist, named.
      let held = '';
      await waitFor('the held SetObjectState statement in the processlist', 20_000, async () => {
        const [procs] = await direct.query<RowDataPacket[]>(
          "SELECT CONVERT(info USING utf8mb4) AS info, time_ms FROM information_schema.processlist WHERE info LIKE '%operation=''SetObjectState''%'",
        );
        const p = procs[0];
        held = p === undefined ? '' : String(p['info']);
        return { ok: p !== undefined && Number(p['time_ms']) > SLOW_MS * 2, seen: procs };
      });
      expect(held).toContain("caller='net'");
      await locker.query('COMMIT');
      await write;
    } finally {
      await locker.end();
    }
    const text = await scrape();
    expect(metricValue(text, 'database_slow_statements_total', { operation: 'SetObjectState', caller_daemon: 'net' })).toBeGreaterThanOrEqual(1);
    const lines = logText
      .split('\n')
      .filter((l) => l.includes('"slow statement"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = lines.find((l) => l['operation'] === 'SetObjectState');
    expect(line).toBeDefined();
    expect(line).toMatchObject({ caller_daemon: 'net', caller_node: NODE, source: 'rpc' });
    // Told in the call's own log: an untraced call's line carries its call id.
    expect(line?.['call_id']).toEqual(expect.any(String));
    expect(Number(line?.['duration_ms'])).toBeGreaterThan(SLOW_MS);
    // The query function, never the parameters.
    expect(String(line?.['statement'])).toMatch(/\(rpc\/[a-z-]+\/[a-z-]+\.(ts|js)\)$|rpc\/[a-z-]+\/[a-z-]+\.(ts|js):\d+$/);
    expect(JSON.stringify(line)).not.toContain(uuid);
  });
});
