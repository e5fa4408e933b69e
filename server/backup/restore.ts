// `sf-database restore FILE --yes`: puts a backup in place of the database, so that no
// lease token, claim epoch, version or change sequence issued before the restore is ever
// issued again, and every change cursor from before answers resync.
//
// The steps, each refusing before anything of the live database is touched:
//   1. the file must start with the backup header; no replica may be live in the database
//      (exit 4: stop them first — a replica keeps its change window in memory);
//   2. the backup is loaded into a staging database `<db>__restore` (the mariadb client)
//      and migrated to this release (a backup from a newer release: exit 3);
//   3. the counter floor is chosen (below) and every counter of the staging copy is raised
//      to it (queries.raiseCounters);
//   4. the live check again, then one atomic RENAME TABLE swaps the restored tables in;
//      the replaced ones, moved to `<db>__replaced`, are dropped with the staging database.
//
// The floor must be above every value the cluster before the restore can have issued,
// including after the backup was taken. It is the largest of three bounds, and it is
// enough that one of them holds:
//   - before  the highest counter of the database restored over, plus one: exact when
//             that database is the old cluster's (restoring over bad data, a bad
//             migration, an operator's mistake);
//   - backup  the highest counter in the backup plus --bump (10^9): holds when fewer than
//             that many values of any one counter were issued after the backup was taken
//             (the database was lost; the idea of etcd's --bump-revision);
//   - clock   the database clock in microseconds since 1970 (about 1.8·10^15 in 2027):
//             counters grow by one per write of their row (per change row for the change
//             sequence), so none passes the clock unless it was issued faster than a
//             million a second, on average, since it last started from the clock.
// Counters are int64 on the wire; a floor past 2^62 is refused.
import { basename } from 'node:path';
import { closeSync, openSync, readSync } from 'node:fs';
import { Database, createPool } from '../db/pool.js';
import type { Sql } from '../db/sql.js';
import type { Logger } from '@sfdb/proto/runtime/log';
import type { Metrics } from '../metrics.js';
import { SchemaError, migrate } from '../migrate.js';
import { BACKUP_HEADER } from './backup.js';
import * as q from './queries.js';
import { ARCHIVE_EXIT, ArchiveError, addressOf, clientTool, ident, runTool, urlOfDatabase, withOptionFile } from './tools.js';

/** Floors past this are refused: counters are int64 on the wire and must keep growing. */
const MAX_FLOOR = 1n << 62n;

export interface RestoreOptions {
  /** The live database's URL (SFDB_DATABASE_URL, or the embedded one). */
  url: string;
  file: string;
  bump: bigint;
  binDir: string | undefined;
  /** A replica is live while its heartbeat is younger than this. */
  replicaLiveMs: number;
  log: Logger;
  metrics: Metrics;
}

export interface RestoreResult {
  database: string;
  /** The backup's schema version, and the one it was migrated to. */
  schemaFrom: number;
  schemaTo: number;
  floor: bigint;
  bounds: { before: bigint; backup: bigint; clock: bigint };
}

/** The first line of `file` must be the backup header: nothing else is loaded. */
function checkHeader(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    throw new ArchiveError(`cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, ARCHIVE_EXIT.usage);
  }
  try {
    const head = Buffer.alloc(BACKUP_HEADER.length);
    const n = readSync(fd, head, 0, head.length, 0);
    if (n < head.length || head.toString('utf8') !== BACKUP_HEADER) {
      throw new ArchiveError(`${file} is not a backup made by sf-database backup (its first line is not "${BACKUP_HEADER}…")`, ARCHIVE_EXIT.usage);
    }
  } finally {
    closeSync(fd);
  }
}

/** `<db>__<suffix>`, within MariaDB's 64 characters for a name. */
function beside(database: string, suffix: string): string {
  return `${database.slice(0, 64 - suffix.length - 2)}__${suffix}`;
}

async function refuseLiveReplicas(live: Sql, database: string, liveMs: number): Promise<void> {
  const replicas = await q.liveReplicas(live, liveMs);
  if (replicas.length === 0) return;
  const named = replicas.map((r) => (r.address ? `${r.id} (${r.address})` : r.id)).join(', ');
  throw new ArchiveError(
    `${replicas.length} replica(s) are live in database ${database}: ${named}. Stop every replica first (a replica ` +
      `serves its change window from memory), wait until their heartbeats are ${Math.round(liveMs / 1000)} s old, and run the restore again`,
    ARCHIVE_EXIT.liveReplicas,
  );
}

function open(url: string, metrics: Metrics): Database {
  return new Database(createPool({ url, connectionLimit: 2 }), metrics);
}

export async function restore(o: RestoreOptions): Promise<RestoreResult> {
  checkHeader(o.file);
  const mariadb = clientTool('mariadb', o.binDir);
  const address = addressOf(o.url);
  const database = address.database;
  const staging = beside(database, 'restore');
  const replaced = beside(database, 'replaced');
  const server = open(urlOfDatabase(o.url, ''), o.metrics);
  const opened: Database[] = [server];
  const serverSql = server.sql('migration');
  try {
    await serverSql.unprepared(`CREATE DATABASE IF NOT EXISTS ${ident(database)} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    const live = open(o.url, o.metrics);
    opened.push(live);
    const liveSql = live.sql('migration');
    await refuseLiveReplicas(liveSql, database, o.replicaLiveMs);

    await serverSql.unprepared(`DROP DATABASE IF EXISTS ${ident(staging)}`);
    await serverSql.unprepared(`DROP DATABASE IF EXISTS ${ident(replaced)}`);
    await serverSql.unprepared(`CREATE DATABASE ${ident(staging)} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    o.log.info({ file: o.file, staging }, 'restore: loading the backup into the staging database');
    await withOptionFile(address, (options) =>
      runTool(mariadb, [`--defaults-extra-file=${options}`, '--default-character-set=utf8mb4', staging], { stdinFile: o.file, what: 'loading the backup (mariadb)' }),
    );

    const restored = open(urlOfDatabase(o.url, staging), o.metrics);
    opened.push(restored);
    const restoredSql = restored.sql('migration');
    const schemaFrom = await q.schemaVersion(restoredSql);
    if (schemaFrom === undefined) throw new ArchiveError(`${o.file} holds no sf-database schema`, ARCHIVE_EXIT.usage);
    await q.freeMigrationLease(restoredSql);
    try {
      await migrate(restoredSql, { log: o.log });
    } catch (err) {
      if (err instanceof SchemaError) throw new ArchiveError(`the backup cannot be used by this release: ${err.message}`, ARCHIVE_EXIT.schema);
      throw err;
    }
    const schemaTo = (await q.schemaVersion(restoredSql)) ?? schemaFrom;

    const bounds = {
      before: (await q.highestIssued(liveSql)) + 1n,
      backup: (await q.highestIssued(restoredSql)) + o.bump,
      clock: await q.clockMicros(serverSql),
    };
    const floor = [bounds.before, bounds.backup, bounds.clock].reduce((a, b) => (a > b ? a : b));
    if (floor > MAX_FLOOR) throw new ArchiveError(`the counter floor would be ${floor}, past 2^62: counters would run out (is --bump too large?)`, ARCHIVE_EXIT.usage);
    o.log.info({ floor: String(floor), before: String(bounds.before), backup: String(bounds.backup), clock: String(bounds.clock) }, 'restore: raising every counter to the floor');
    await q.raiseCounters(restoredSql, floor, basename(o.file));

    await refuseLiveReplicas(liveSql, database, o.replicaLiveMs);
    await q.swapTables(serverSql, { live: database, staging, replaced });
    return { database, schemaFrom, schemaTo, floor, bounds };
  } finally {
    for (const db of opened.slice(1).reverse()) await db.close().catch(() => undefined);
    // The staging database is empty after a swap; the replaced tables are not kept.
    await serverSql.unprepared(`DROP DATABASE IF EXISTS ${ident(staging)}`).catch(() => undefined);
    await serverSql.unprepared(`DROP DATABASE IF EXISTS ${ident(replaced)}`).catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}
