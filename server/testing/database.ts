// Where a test or bench tier's database lives: the servers behind it (one MariaDB, or the
// nodes of a Galera cluster, harness/galera.ts) and how a database is made on them.
//   - PrivateMariaDb: a MariaDB from the system's binaries with its data in a run's
//     temporary directory (EmbeddedMariaDb, never the machine's own service), a part of the
//     run's lifecycle: started after the directory, stopped before it is removed;
//   - MariaDbAt: a server someone else runs, named by its URL (the test suite's private
//     mariadbd, a daemon author's MariaDB): nothing to start or stop.
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import type { Component } from '@sfdb/proto/runtime/lifecycle';
import { EmbeddedMariaDb } from '../embedded/mariadb.js';

/** The database servers of a tier: replica `i` dials server `i % size`. */
export interface DatabaseServer {
  /** How many servers (a Galera cluster's nodes; 1 otherwise). */
  readonly size: number;
  /** mysql://… of `database` on server `index`. */
  urlFor(index: number, database: string): string;
  /** Creates `name` (utf8mb4_bin) unless it exists. */
  createDatabase(name: string): Promise<void>;
  dropDatabase(name: string): Promise<void>;
  /** The servers' process ids where this process runs them (undefined for one it does not). */
  pids(): (number | undefined)[];
}

/** Servers that a lifecycle starts and stops (PrivateMariaDb, a private Galera cluster). */
export type ServerPart = DatabaseServer & Component;

export interface PrivateMariaDbOptions {
  /** Created at start and named in `server.url`. */
  database: string;
  say?: (message: string) => void;
  /** SIGKILL after this long of a clean stop (EmbeddedMariaDb's default unless told). */
  graceMs?: number;
  /** Extra mariadbd flags (a throw-away test database trades durability for speed). */
  extraArgs?: string[];
}

export class PrivateMariaDb implements ServerPart {
  readonly name = 'mariadb';
  readonly size = 1;
  private db: EmbeddedMariaDb | undefined;

  /** `dir`: the run's directory (a TempDir), its path known once it is made. */
  constructor(
    private readonly dir: { readonly path: string },
    private readonly opts: PrivateMariaDbOptions,
  ) {}

  async start(): Promise<void> {
    this.opts.say?.(`starting a private MariaDB in ${this.dir.path}`);
    this.db = await EmbeddedMariaDb.start({
      dataDir: join(this.dir.path, 'data'),
      database: this.opts.database,
      ...(this.opts.extraArgs ? { extraArgs: this.opts.extraArgs } : {}),
    });
  }

  async stop(): Promise<void> {
    await this.db?.stop(this.opts.graceMs);
  }

  /** The server, once started. */
  get server(): EmbeddedMariaDb {
    if (!this.db) throw new Error('the private MariaDB is not started');
    return this.db;
  }

  urlFor(_index: number, database: string): string {
    return this.server.urlFor(database);
  }

  createDatabase(name: string): Promise<void> {
    return this.server.createDatabase(name);
  }

  dropDatabase(name: string): Promise<void> {
    return this.server.dropDatabase(name);
  }

  pids(): (number | undefined)[] {
    return [this.db?.pid];
  }
}

/** A MariaDB someone else runs, at `url` (mysql://user:password@host:port, any database or options dropped). */
export class MariaDbAt implements DatabaseServer {
  readonly size = 1;
  /** mysql://user:password@host:port */
  readonly url: string;

  constructor(url: string) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new RangeError(`mariadbUrl: not a URL (mysql://user@host:port): ${url}`);
    }
    if (parsed.protocol !== 'mysql:') throw new RangeError(`mariadbUrl: mysql://user@host:port, not ${parsed.protocol}`);
    const user = parsed.username ? `${parsed.username}${parsed.password ? `:${parsed.password}` : ''}@` : '';
    this.url = `${parsed.protocol}//${user}${parsed.host}`;
  }

  urlFor(_index: number, database: string): string {
    return `${this.url}/${database}`;
  }

  createDatabase(name: string): Promise<void> {
    return this.query(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  }

  dropDatabase(name: string): Promise<void> {
    return this.query(`DROP DATABASE IF EXISTS \`${name}\``);
  }

  pids(): (number | undefined)[] {
    return [undefined];
  }

  private async query(sql: string): Promise<void> {
    const conn = await mysql.createConnection({ uri: this.url, connectTimeout: 5_000 });
    try {
      await conn.query(sql);
    } finally {
      await conn.end();
    }
  }
}
