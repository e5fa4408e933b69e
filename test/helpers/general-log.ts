// MariaDB's general log, for tests that read which statements reached the server. It is
// one switch for the whole private server every test file shares, so its users take turns
// under a named lock: one file's switch-off (or TRUNCATE) never cuts another's window.
import type { Connection, RowDataPacket } from 'mysql2/promise';

export interface LoggedCommand {
  thread: number;
  /** Query, Prepare, Execute, Close stmt, ... */
  command: string;
  argument: string;
}

const LOCK = 'sfdb-test-general-log';

/** What MariaDB's general log held while `during` ran, on every connection of the server. */
export async function generalLog(conn: Connection, during: () => Promise<void>): Promise<LoggedCommand[]> {
  const [[got]] = await conn.query<RowDataPacket[]>('SELECT GET_LOCK(?, 120) AS got', [LOCK]);
  if (Number(got?.['got']) !== 1) throw new Error(`the general log stayed taken by another test file for 120 s`);
  try {
    await conn.query("SET GLOBAL log_output = 'TABLE'");
    await conn.query('TRUNCATE mysql.general_log');
    await conn.query('SET GLOBAL general_log = 1');
    try {
      await during();
    } finally {
      await conn.query('SET GLOBAL general_log = 0');
    }
    const [rows] = await conn.query<RowDataPacket[]>('SELECT thread_id, command_type, CONVERT(argument USING utf8mb4) AS argument FROM mysql.general_log');
    return rows.map((r) => ({ thread: Number(r['thread_id']), command: String(r['command_type']), argument: String(r['argument']) }));
  } finally {
    await conn.query('SELECT RELEASE_LOCK(?)', [LOCK]);
  }
}
