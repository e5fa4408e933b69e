// A private MariaDB for a run: EmbeddedMariaDb (server/embedded/mariadb.ts, never the
// machine's own service) with its data in the run's temporary directory, as a part of
// the run's lifecycle (started after the directory, stopped before it is removed).
import { join } from 'node:path';
import type { Component } from '../proto/runtime/lifecycle.js';
import { EmbeddedMariaDb } from '../server/embedded/mariadb.js';
import type { TempDir } from './temp-dir.js';

export interface PrivateMariaDbOptions {
  /** Created at start and named in the server's url. */
  database: string;
  say?: (message: string) => void;
  /** SIGKILL after this long of a clean stop (EmbeddedMariaDb's default unless told). */
  graceMs?: number;
}

export class PrivateMariaDb implements Component {
  readonly name = 'mariadb';
  private db: EmbeddedMariaDb | undefined;

  constructor(
    private readonly dir: TempDir,
    private readonly opts: PrivateMariaDbOptions,
  ) {}

  async start(): Promise<void> {
    this.opts.say?.(`starting a private MariaDB in ${this.dir.path}`);
    this.db = await EmbeddedMariaDb.start({ dataDir: join(this.dir.path, 'data'), database: this.opts.database });
  }

  async stop(): Promise<void> {
    await this.db?.stop(this.opts.graceMs);
  }

  /** The server, once started. */
  get server(): EmbeddedMariaDb {
    if (!this.db) throw new Error('the private MariaDB is not started');
    return this.db;
  }
}
