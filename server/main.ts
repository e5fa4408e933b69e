#!/usr/bin/env node
// sf-database: `sf-database [serve]` runs a replica; `sf-database migrate` applies
// pending migrations and exits. Without SFDB_DATABASE_URL both use the embedded MariaDB
// under .data/mariadb.
import { ConfigError, parseConfig } from './config.js';
import type { Config } from './config.js';
import { Database, createPool } from './db/pool.js';
import { EmbeddedMariaDb, MariaDbMissingError } from './embedded-mariadb.js';
import { MariaDbInstallError, installMariaDb, systemHost } from './install-mariadb.js';
import { createLogger } from './log.js';
import { Metrics } from './metrics.js';
import { SchemaError, migrate } from './migrate.js';
import { RegistryError } from './registry/registry.js';
import { servingLine } from './serving.js';
import { Tier } from './tier.js';

/** Exit codes: 0 stopped cleanly, 1 failed, 2 bad configuration or no mariadbd, 3 schema
 * refused, 4 replica id held by a live replica, 5 registry row lost while running. */
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

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`sf-database: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
