// EXPLAIN the very statement a query function issues: run it against a recording Sql,
// then EXPLAIN the captured text with its parameters on a direct connection.
import type { Connection } from 'mysql2/promise';
import type { Param, Sql } from '../../server/db/sql.js';

export interface PlanRow {
  table: string | null;
  type: string;
  key: string | null;
  rows: string | number | null;
  Extra: string | null;
}

/** The statement `run` issues, captured without running it. */
export async function captureStatement(run: (sql: Sql) => Promise<unknown>): Promise<{ text: string; params: readonly Param[] }> {
  let captured: { text: string; params: readonly Param[] } | undefined;
  const recorder = {
    rows: async (text: string, params: readonly Param[] = []) => {
      captured = { text, params };
      return [];
    },
    run: async (text: string, params: readonly Param[] = []) => {
      captured = { text, params };
      return { affectedRows: 0, insertId: '0', changedRows: 0 };
    },
  } as unknown as Sql;
  await run(recorder);
  if (!captured) throw new Error('no statement ran');
  return captured;
}

export async function explainStatement(direct: Connection, run: (sql: Sql) => Promise<unknown>): Promise<PlanRow[]> {
  const { text, params } = await captureStatement(run);
  const [rows] = await direct.query(`EXPLAIN ${text}`, [...params]);
  return rows as PlanRow[];
}

/** Index rows the statement reads when run (Handler_read_key + Handler_read_next of its session). */
export async function rowsRead(direct: Connection, run: (sql: Sql) => Promise<unknown>): Promise<number> {
  const { text, params } = await captureStatement(run);
  await direct.query('FLUSH STATUS');
  await direct.execute(text, [...params] as never);
  const [status] = await direct.query("SHOW SESSION STATUS WHERE Variable_name IN ('Handler_read_key', 'Handler_read_next')");
  return (status as { Value: string }[]).reduce((sum, s) => sum + Number(s.Value), 0);
}
