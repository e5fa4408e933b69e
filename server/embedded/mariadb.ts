// A private MariaDB started from the system's binaries: the embedded default of
// `npm start` (under .data/mariadb) and the database of the tests (in a temporary
// directory). It never touches the machine's own MariaDB service: --no-defaults, its own
// data directory, socket and port, loopback only.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import mysql from 'mysql2/promise';

export class MariaDbMissingError extends Error {
  override name = 'MariaDbMissingError';
  constructor() {
    super('mariadbd not found: install it with `apt-get install -y mariadb-server` (or set SFDB_DATABASE_URL)');
  }
}

/** The data directory's mariadbd belongs to another process that is still running (a serving sf-database). */
export class EmbeddedInUseError extends Error {
  override name = 'EmbeddedInUseError';
  constructor(dataDir: string, owner: number) {
    super(
      `the embedded MariaDB under ${dataDir} is in use by process ${owner} (a running sf-database?): stop it first, ` +
        'or give both the same SFDB_EMBEDDED_PORT and reach it with SFDB_DATABASE_URL=mysql://root@127.0.0.1:PORT/sfdb',
    );
  }
}

const SEARCH_PATH = ['/usr/sbin', '/usr/local/sbin', '/usr/bin', '/usr/local/bin', '/sbin', '/bin'];

/** Finds a MariaDB binary in `binDir`, or else on PATH or in the usual system directories. */
export function findBinary(name: string, binDir?: string): string | undefined {
  const dirs = binDir !== undefined ? [binDir] : [...(process.env['PATH'] ?? '').split(':').filter(Boolean), ...SEARCH_PATH];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** True when `pid` runs and its command line mentions `needle` (not a reused pid). */
function runs(pid: number, needle: string): boolean {
  try {
    return isAlive(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle);
  } catch {
    return false;
  }
}

/**
 * Removes what killed runs left in `parent`: directories named `prefix…` whose owner
 * processes (`*.run/owner.pid`) are dead — their mariadbd is stopped, the directory
 * deleted. A directory whose owner lives (a concurrent run) is left alone.
 */
export async function reapOrphans(parent: string, prefix: string): Promise<string[]> {
  const reaped: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(parent).filter((name) => name.startsWith(prefix));
  } catch {
    return reaped;
  }
  for (const name of entries) {
    const dir = join(parent, name);
    let runDirs: string[];
    try {
      runDirs = readdirSync(dir).filter((d) => d.endsWith('.run')).map((d) => join(dir, d));
    } catch {
      continue;
    }
    const owners = runDirs.map((r) => join(r, 'owner.pid')).filter((f) => existsSync(f));
    if (owners.length === 0) continue;
    if (owners.some((f) => isAlive(Number(readFileSync(f, 'utf8').trim())))) continue;
    for (const runDir of runDirs) {
      const pidFile = join(runDir, 'mariadbd.pid');
      const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : 0;
      if (pid > 0 && runs(pid, dir)) {
        process.kill(pid, 'SIGTERM');
        try {
          await waitFor(() => !isAlive(pid), 30_000, `orphaned mariadbd ${pid} to exit`);
        } catch {
          process.kill(pid, 'SIGKILL');
        }
      }
    }
    rmSync(dir, { recursive: true, force: true });
    reaped.push(dir);
  }
  return reaped;
}

export interface EmbeddedOptions {
  /** Data directory; created and initialised on first use, reused after. */
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Directory of mariadbd and mariadb-install-db; default PATH and the system dirs. */
  binDir?: string;
  /** Database created at start (if missing) and named in `url`. */
  database?: string;
  /** Extra mariadbd flags (tests use these to trade durability for speed). */
  extraArgs?: string[];
  log?: (message: string) => void;
}

/** How many ports a start tries when the one it picked is taken before mariadbd binds it. */
const PORT_ATTEMPTS = 3;

export class EmbeddedMariaDb {
  private child: ChildProcess | undefined;

  private constructor(
    readonly dataDir: string,
    readonly port: number,
    readonly database: string,
    private readonly args: string[],
    private readonly mariadbd: string,
    private readonly log: (message: string) => void,
  ) {}

  /** mysql://root@127.0.0.1:PORT/DATABASE */
  get url(): string {
    return this.urlFor(this.database);
  }

  urlFor(database: string): string {
    return `mysql://root@127.0.0.1:${this.port}/${database}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  static async start(options: EmbeddedOptions): Promise<EmbeddedMariaDb> {
    const mariadbd = findBinary('mariadbd', options.binDir);
    const installDb = findBinary('mariadb-install-db', options.binDir);
    if (!mariadbd || !installDb) throw new MariaDbMissingError();
    const log = options.log ?? (() => {});
    const dataDir = resolve(options.dataDir);
    const runDir = `${dataDir}.run`;
    mkdirSync(runDir, { recursive: true });
    // Its mariadbd serves a process that still runs (a replica of `npm start`, while
    // `sf-ctl backup` uses the embedded default too): refuse rather than stop it below.
    const ownerFile = join(runDir, 'owner.pid');
    const owner = existsSync(ownerFile) ? Number(readFileSync(ownerFile, 'utf8').trim()) : 0;
    const serving = join(runDir, 'mariadbd.pid');
    const servingPid = existsSync(serving) ? Number(readFileSync(serving, 'utf8').trim()) : 0;
    if (owner > 0 && owner !== process.pid && isAlive(owner) && servingPid > 0 && runs(servingPid, dataDir)) throw new EmbeddedInUseError(dataDir, owner);
    // Who started it: a later run reaps a mariadbd whose owner died without stopping it.
    writeFileSync(ownerFile, `${process.pid}\n`);
    const asRoot = process.getuid?.() === 0;

    if (!existsSync(join(dataDir, 'mysql'))) {
      mkdirSync(dataDir, { recursive: true });
      log(`initialising a MariaDB data directory in ${dataDir}`);
      const init = spawnSync(
        installDb,
        [
          '--no-defaults',
          `--datadir=${dataDir}`,
          '--auth-root-authentication-method=normal',
          '--skip-test-db',
          // Its own temporary directory: several private servers may initialise at once.
          `--tmpdir=${runDir}`,
          ...(asRoot ? ['--user=root'] : []),
        ],
        { encoding: 'utf8' },
      );
      if (init.status !== 0) throw new Error(`mariadb-install-db failed: ${init.stderr || init.stdout}`);
    }

    // A mariadbd left behind by a killed run still holds the data directory: stop it.
    const pidFile = join(runDir, 'mariadbd.pid');
    if (existsSync(pidFile)) {
      const stale = Number(readFileSync(pidFile, 'utf8').trim());
      if (stale > 0 && isAlive(stale)) {
        log(`stopping a mariadbd (pid ${stale}) left behind by an earlier run`);
        process.kill(stale, 'SIGTERM');
        await waitFor(() => !isAlive(stale), 60_000, `the old mariadbd (pid ${stale}) to exit`);
      }
    }

    // A port we pick is free now but bound only when mariadbd starts: taken meanwhile, the
    // launch is tried again on a fresh one. A port the caller gave is theirs to fix.
    const picked = !(options.port !== undefined && options.port > 0);
    for (let attempt = 1; ; attempt++) {
      const port = picked ? await freePort() : (options.port as number);
      const args = [
        '--no-defaults',
        `--datadir=${dataDir}`,
        `--socket=${join(runDir, 'mariadbd.sock')}`,
        `--pid-file=${pidFile}`,
        `--log-error=${join(runDir, 'mariadbd.err')}`,
        '--bind-address=127.0.0.1',
        `--port=${port}`,
        '--skip-log-bin',
        '--skip-name-resolve',
        `--tmpdir=${runDir}`,
        '--max-connections=1000',
        '--innodb-buffer-pool-size=256M',
        ...(asRoot ? ['--user=root'] : []),
        ...(options.extraArgs ?? []),
      ];
      const db = new EmbeddedMariaDb(dataDir, port, options.database ?? 'sfdb', args, mariadbd, log);
      const errLog = join(runDir, 'mariadbd.err');
      const errBefore = existsSync(errLog) ? statSync(errLog).size : 0;
      try {
        await db.launch();
        await db.createDatabase(db.database);
        return db;
      } catch (err) {
        // A start that failed half-way (never answered, or refused the database) leaves no
        // mariadbd behind: it runs in its own process group and would outlive us.
        await db.stop(5_000);
        const said = existsSync(errLog) ? readFileSync(errLog, 'utf8').slice(errBefore) : '';
        if (!picked || attempt >= PORT_ATTEMPTS || !/Address already in use|Bind on TCP\/IP port/.test(said)) throw err;
        log(`port ${port} was taken before mariadbd bound it; starting it on another`);
      }
    }
  }

  private async launch(): Promise<void> {
    const errLog = openSync(join(`${this.dataDir}.run`, 'mariadbd.out'), 'a');
    // Its own process group: a Ctrl-C at the terminal reaches us, and we stop it in order.
    const child = spawn(this.mariadbd, this.args, { detached: true, stdio: ['ignore', errLog, errLog] });
    closeSync(errLog);
    this.child = child;
    let exited = false;
    child.once('exit', () => {
      exited = true;
    });
    await waitFor(
      async () => {
        if (exited) throw new Error(`mariadbd exited during start; see ${join(`${this.dataDir}.run`, 'mariadbd.err')}`);
        return this.ping();
      },
      60_000,
      `mariadbd on port ${this.port}`,
    );
    this.log(`MariaDB ${this.dataDir} is serving on 127.0.0.1:${this.port} (pid ${child.pid})`);
  }

  private async ping(): Promise<boolean> {
    try {
      const conn = await mysql.createConnection({ host: '127.0.0.1', port: this.port, user: 'root', connectTimeout: 1000 });
      await conn.end();
      return true;
    } catch {
      return false;
    }
  }

  async createDatabase(name: string): Promise<void> {
    const conn = await mysql.createConnection({ host: '127.0.0.1', port: this.port, user: 'root' });
    try {
      await conn.query(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    } finally {
      await conn.end();
    }
  }

  async dropDatabase(name: string): Promise<void> {
    const conn = await mysql.createConnection({ host: '127.0.0.1', port: this.port, user: 'root' });
    try {
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
    } finally {
      await conn.end();
    }
  }

  /** Stops mariadbd cleanly (SIGTERM, then SIGKILL after `graceMs`). */
  async stop(graceMs = 60_000): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
    this.child = undefined;
  }

  /** Kills mariadbd at once, as a crash would (tests of outages). */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGKILL');
    await exited;
    this.child = undefined;
  }

  /** Starts it again on the same port and data directory. */
  async restart(): Promise<void> {
    await this.launch();
  }
}
