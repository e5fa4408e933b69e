#!/usr/bin/env node
// sf-database: `sf-database [serve]` runs a replica; `sf-database migrate` applies
// pending migrations and exits; `sf-database backup FILE` and `sf-database restore FILE
// --yes` write and restore a backup (server/backup/). Without SFDB_DATABASE_URL they all
// use the embedded MariaDB under .data/mariadb.
import { resolve } from 'node:path';
import { backup } from './backup/backup.js';
import { restore } from './backup/restore.js';
import { ArchiveError } from './backup/tools.js';
import { ConfigError, parseConfig } from './config.js';
import type { Config } from './config.js';
import { Database, createPool } from './db/pool.js';
import { EmbeddedInUseError, EmbeddedMariaDb, MariaDbMissingError } from './embedded-mariadb.js';
import { MariaDbInstallError, installMariaDb, systemHost } from './install-mariadb.js';
import { createLogger } from './log.js';
import { Metrics } from './metrics.js';
import { SchemaError, migrate } from './migrate.js';
import { RegistryError } from './registry/registry.js';
import { servingLine } from './serving.js';
import { Tier } from './tier.js';

/** Exit codes: 0 stopped cleanly, 1 failed, 2 bad configuration or no mariadbd, 3 schema
 * refused, 4 replica id held by a live replica (restore: live replicas in the database),
 * 5 registry row lost while running. */
const EXIT_REGISTRY_LOST = 5;

async function main(): Promise<number> {
  let config: Config;
  try {
    config = parseConfig(process.env, process.argv.slice(2));
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`sf-database: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const log = createLogger(config.logLevel, { replica: config.replicaId });
  if (config.command === 'restore' && !config.archive?.confirmed) {
    process.stderr.write(
      'sf-database: restore replaces every table of the database with the backup (and ends every lease and claim): ' +
        'stop every replica, then run it again with --yes\n',
    );
    return 2;
  }

  let embedded: EmbeddedMariaDb | undefined;
  if (config.databaseUrl === undefined) {
    const start = (): Promise<EmbeddedMariaDb> =>
      EmbeddedMariaDb.start({
        dataDir: config.dataDir,
        port: config.embeddedPort,
        binDir: config.mariadbBinDir,
        database: 'sfdb',
        log: (message) => log.info(message),
      });
    try {
      embedded = await start();
    } catch (err) {
      if (err instanceof EmbeddedInUseError) {
        process.stderr.write(`sf-database: ${err.message}\n`);
        return 2;
      }
      if (!(err instanceof MariaDbMissingError)) throw err;
      // A fresh machine: install mariadb-server when we may (root, apt-get), else say how.
      // A bin dir given by hand is the operator's choice: nothing is installed for it.
      if (config.mariadbBinDir !== undefined) {
        process.stderr.write(`sf-database: ${err.message}\n`);
        return 2;
      }
      try {
        await installMariaDb(systemHost((message) => process.stderr.write(`sf-database: ${message}\n`)));
      } catch (installErr) {
        if (!(installErr instanceof MariaDbInstallError)) throw installErr;
        process.stderr.write(`sf-database: ${installErr.message}\n`);
        return 2;
      }
      embedded = await start();
    }
  }
  const url = config.databaseUrl ?? (embedded as EmbeddedMariaDb).url;

  try {
    if (config.command === 'migrate') {
      const db = new Database(createPool({ url, connectionLimit: 2 }), new Metrics(config.replicaId));
      try {
        const applied = await migrate(db.sql('migration'), { log });
        process.stdout.write(applied.length > 0 ? `applied migrations ${applied.join(', ')}\n` : 'schema is current\n');
      } finally {
        await db.close();
      }
      return 0;
    }

    if (config.command === 'backup' || config.command === 'restore') return await archive(config, url, log);

    const tier = await Tier.start(config, url, log);
    // One JSON line for supervisors and scripts (tests read the bound ports from it).
    process.stdout.write(servingLine({ replica: config.replicaId, grpc: `${config.grpcHost}:${tier.grpcPort}`, http: `${config.httpHost}:${tier.httpPort}` }));
    return await new Promise<number>((resolve) => {
      let signals = 0;
      const onSignal = (signal: NodeJS.Signals): void => {
        signals += 1;
        if (signals > 1) {
          log.warn({ signal }, 'second signal: exiting now');
          resolve(1);
          return;
        }
        log.info({ signal }, 'shutting down');
        tier.stop().then(
          () => resolve(0),
          (err: unknown) => {
            log.error({ err }, 'error while stopping');
            resolve(1);
          },
        );
      };
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
      // Our registry row is gone (swept, or our id taken while we were stalled): the tier
      // drains; exit non-zero so the supervisor starts a fresh replica.
      void tier.lost.then(async (reason) => {
        log.error({ reason }, 'lost the registry row: exiting for a restart');
        await tier.stop();
        resolve(EXIT_REGISTRY_LOST);
      });
    });
  } catch (err) {
    if (err instanceof SchemaError) {
      process.stderr.write(`sf-database: ${err.message}\n`);
      return 3;
    }
    if (err instanceof ArchiveError) {
      process.stderr.write(`sf-database: ${err.message}\n`);
      return err.exitCode;
    }
    if (err instanceof RegistryError) {
      process.stderr.write(`sf-database: ${err.message}\n`);
      return 4;
    }
    log.error({ err }, 'sf-database failed');
    return 1;
  } finally {
    if (embedded) await embedded.stop();
  }
}

/** `backup FILE` or `restore FILE --yes`: one line on stdout saying what was done. */
async function archive(config: Config, url: string, log: ReturnType<typeof createLogger>): Promise<number> {
  const args = config.archive;
  if (!args) throw new Error(`${config.command} without its arguments`);
  const file = resolve(args.file);
  const metrics = new Metrics(config.replicaId);
  if (config.command === 'backup') {
    const db = new Database(createPool({ url, connectionLimit: 2 }), metrics);
    try {
      const r = await backup({ url, sql: db.sql('migration'), file, binDir: config.mariadbBinDir });
      process.stdout.write(`backed up the database (schema ${r.schemaVersion}) to ${r.file}: ${r.bytes} bytes\n`);
    } finally {
      await db.close();
    }
    return 0;
  }
  const r = await restore({ url, file, bump: args.bump, binDir: config.mariadbBinDir, replicaLiveMs: config.replicaLiveMs, log, metrics });
  const migrated = r.schemaTo === r.schemaFrom ? `schema ${r.schemaTo}` : `schema ${r.schemaFrom}, migrated to ${r.schemaTo}`;
  process.stdout.write(
    `restored ${file} into database ${r.database} (${migrated}). Every counter now continues from ${r.floor}: no lease token, ` +
      'claim epoch, version or change sequence from before the restore is issued again, every lease and claim of the backup has ended, ' +
      'and a change cursor from before answers resync. Start the replicas.\n',
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`sf-database: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
