// SFDB_PREPARED_STATEMENTS bounds the statements one MariaDB connection keeps prepared
// (server/db/pool.ts): past it mysql2 closes the least recently used on the server, so a
// replica's share of MariaDB's max_prepared_stmt_count is connections × the bound however
// many (text, caller) pairs its statements name. Counted by MariaDB itself, per session
// (Com_stmt_prepare, Com_stmt_close of the pool's one connection), never by the server-wide
// Prepared_stmt_count that other test files move.
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, createPool } from '../../server/db/pool.js';
import { Metrics } from '../../server/metrics.js';
import { createTestDatabase, dropTestDatabase, mariadbUrl } from '../helpers/tier.js';

let name = '';
beforeAll(async () => {
  name = await createTestDatabase();
});
afterAll(async () => {
  if (name) await dropTestDatabase(name);
});

/** A Database of one connection (so one MariaDB session), its statements kept up to `bound` (none: mysql2's default). */
function oneConnection(bound?: number): Database {
  const pool = createPool({ url: mariadbUrl(name), connectionLimit: 1, ...(bound !== undefined ? { maxPreparedStatements: bound } : {}) });
  return new Database(pool, new Metrics(`prepared-${bound ?? 'default'}`));
}

/** Statements the pool's one session has prepared and closed so far (text protocol: neither moves them). */
async function session(db: Database): Promise<{ prepared: number; closed: number }> {
  const [rows] = await db.pool.query<RowDataPacket[]>("SHOW SESSION STATUS WHERE Variable_name IN ('Com_stmt_prepare', 'Com_stmt_close')");
  const value = (v: string): number => Number((rows as { Variable_name: string; Value: string }[]).find((r) => r.Variable_name === v)?.Value);
  return { prepared: value('Com_stmt_prepare'), closed: value('Com_stmt_close') };
}

/** Runs five distinct prepared texts, then the first again; what the session prepared and closed meanwhile. */
async function fiveTextsThenTheFirst(db: Database): Promise<{ prepared: number; closed: number }> {
  const sql = db.sql('rpc');
  const before = await session(db);
  for (let i = 0; i < 5; i++) expect(await sql.rows<{ v: number }>(`SELECT ? + ${i} AS v`, [1])).toEqual([{ v: 1 + i }]);
  expect(await sql.rows<{ v: number }>('SELECT ? + 0 AS v', [2])).toEqual([{ v: 2 }]);
  const after = await session(db);
  return { prepared: after.prepared - before.prepared, closed: after.closed - before.closed };
}

describe('prepared statements per connection', () => {
  it('keeps at most the bound open on MariaDB: the least recently used is closed, and prepared again when sent again', async () => {
    const db = oneConnection(2);
    try {
      const { prepared, closed } = await fiveTextsThenTheFirst(db);
      // Five texts and the first again (evicted by the third): six prepares, four closes, two open.
      expect(prepared).toBe(6);
      expect(closed).toBe(4);
      expect(prepared - closed).toBe(2);
    } finally {
      await db.close();
    }
  });

  it("without the bound (mysql2's default of 16 000) closes none and prepares each text once", async () => {
    const db = oneConnection();
    try {
      expect(await fiveTextsThenTheFirst(db)).toEqual({ prepared: 5, closed: 0 });
    } finally {
      await db.close();
    }
  });
});
