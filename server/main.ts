#!/usr/bin/env node
// sf-database: `sf-database [serve]` runs a replica; `sf-database migrate` applies
// pending migrations and exits; `sf-database backup FILE` and `sf-database restore FILE
// --yes` write and restore a backup (server/backup/). Without SFDB_DATABASE_URL they all
// use the embedded MariaDB under .data/mariadb.
import { resolve } from 'node:path';
import { Lifecycle, StartAbortedError, component, stopOnSignals } from '@sfdb/proto/runtime/lifecycle';
import { tracingComponent } from '@sfdb/proto/runtime/tracing';
import { backup } from './backup/backup.js';
import { restore } from './backup/restore.js';
import { ArchiveError } from './backup/tools.js';
import { ConfigError, parseConfig, usageText } from './config.js';
import type { Config } from './config.js';
import { Database, createPool } from './db/pool.js';
import { EmbeddedInUseError, EmbeddedMariaDb, MariaDbMissingError } from './embedded/mariadb.js';
import { MariaDbInstallError, installMariaDb, systemHost } from './embedded/install.js';
import { createLogger } from '@sfdb/proto/runtime/log';
import type { Logger } from '@sfdb/proto/runtime/log';
import { Metrics } from './metrics.js';
import { SchemaError, migrate } from './migrate.js';
import { RegistryError } from './registry/registry.js';
import { servingLine } from './serving.js';
import { Tier } from './tier.js';

/** Exit codes: 0 stopped cleanly, 1 failed, 2 bad configuration or no mariadbd, 3 schema
 * refused, 4 replica id held by a live replica, 5 registry row lost while running. */
const EXIT_REGISTRY_LOST = 5;

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(usageText());
    return 0;
  }
  let config: Config;
  try {
    config = parseConfig(process.env, argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`sf-database: ${err.message} (sf-database --help lists the commands and flags)\n`);
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

  // One owner for the process's parts: tracing (when OTEL_TRACES_EXPORTER asks), the
  // embedded MariaDB (when no URL is given), then the tier or the migration; stopped in
  // reverse on a failure, a signal or a lost row — tracing last, flushing what the others traced.
  const lifecycle = new Lifecycle({
    onEvent: ({ component: name, phase, err }) => {
      if (phase === 'stop failed') log.error({ err, component: name }, 'could not stop a component');
    },
  });
  lifecycle.add(tracingComponent(config.tracing, { instance: config.replicaId, log }));
  let embedded: EmbeddedMariaDb | undefined;
  if (config.databaseUrl === undefined) {
    lifecycle.add(
      component(
        'embedded mariadb',
        async () => (embedded = await startEmbedded(config, log)),
        () => embedded?.stop(),
      ),
    );
  }
  const url = (): string => config.databaseUrl ?? (embedded as EmbeddedMariaDb).url;
  let tier: Tier | undefined;
  if (config.command === 'migrate') {
    lifecycle.add(
      component('migrate', async () => {
        const db = new Database(createPool({ url: url(), connectionLimit: 2 }), new Metrics(config.replicaId));
        try {
          const applied = await migrate(db.sql('migration'), { log });
          process.stdout.write(applied.length > 0 ? `applied migrations ${applied.join(', ')}\n` : 'schema is current\n');
        } finally {
          await db.close();
        }
      }),
    );
  } else if (config.command === 'backup' || config.command === 'restore') {
    lifecycle.add(component(config.command, () => archive(config, url(), log)));
  } else {
    lifecycle.add(component('tier', async () => (tier = await Tier.start(config, url(), log)), () => tier?.stop()));
  }

  const signals = stopOnSignals(lifecycle, {
    onSignal: (signal, second) => (second ? log.warn({ signal }, 'second signal: exiting now') : log.info({ signal }, 'shutting down')),
    onStopError: (err) => log.error({ err }, 'error while stopping'),
  });
  try {
    await lifecycle.start();
  } catch (err) {
    if (err instanceof StartAbortedError) return signals.exitCode;
    if (err instanceof ExitError) {
      process.stderr.write(`sf-database: ${err.message}\n`);
      return err.code;
    }
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
  }
  if (!tier) {
    await lifecycle.stop();
    return 0;
  }
  const serving = tier;
  // One JSON line for supervisors and scripts (tests read the bound ports from it).
  process.stdout.write(servingLine({ replica: config.replicaId, grpc: `${config.grpcHost}:${serving.grpcPort}`, http: `${config.httpHost}:${serving.httpPort}` }));
  // Our registry row is gone (swept, or our id taken while we were stalled): the tier
  // drains; exit non-zero so the supervisor starts a fresh replica.
  const lost = serving.lost.then(async (reason) => {
    log.error({ reason }, 'lost the registry row: exiting for a restart');
    await lifecycle.stop().catch(() => undefined);
    return EXIT_REGISTRY_LOST;
  });
  return Promise.race([signals.exitCode, lost]);
}

async function archive(config: Config, url: string, log: Logger): Promise<number> {
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

/** A refusal that ends the process with its own exit code and message. */
class ExitError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/** Starts the embedded MariaDB; on a fresh machine installs mariadb-server first when it may. */
async function startEmbedded(config: Config, log: Logger): Promise<EmbeddedMariaDb> {
  const start = (): Promise<EmbeddedMariaDb> =>
    EmbeddedMariaDb.start({
      dataDir: config.dataDir,
      port: config.embeddedPort,
      binDir: config.mariadbBinDir,
      database: 'sfdb',
      log: (message) => log.info(message),
    });
  try {
    return await start();
  } catch (err) {
    if (err instanceof EmbeddedInUseError) throw new ExitError(err.message, 2);
    if (!(err instanceof MariaDbMissingError)) throw err;
    // A fresh machine: install mariadb-server when we may (root, apt-get), else say how.
    // A bin dir given by hand is the operator's choice: nothing is installed for it.
    if (config.mariadbBinDir !== undefined) throw new ExitError(err.message, 2);
    try {
      await installMariaDb(systemHost((message) => process.stderr.write(`sf-database: ${message}\n`)));
    } catch (installErr) {
      if (!(installErr instanceof MariaDbInstallError)) throw installErr;
      throw new ExitError(installErr.message, 2);
    }
    return start();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`sf-database: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
