// What backup and restore share: MariaDB's own client tools (mariadb-dump writes a backup,
// mariadb loads one), run with the connection of SFDB_DATABASE_URL given in an option
// file only this process can read — never a password on a command line — and the errors
// they end with, each carrying the exit code of sf-database.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBinary } from '../embedded/mariadb.js';

/** A backup or restore that cannot go on: one line for the operator, and the exit code. */
export class ArchiveError extends Error {
  override name = 'ArchiveError';
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** Exit codes of `sf-database backup|restore` beyond 0 (done) and 1 (failed). */
export const ARCHIVE_EXIT = {
  failed: 1,
  /** bad arguments, a missing tool, a file that is not a backup, a backup file that exists */
  usage: 2,
  /** the backup's schema is newer than this release */
  schema: 3,
  /** restore: live replicas are registered in the database */
  liveReplicas: 4,
} as const;

export interface ServerAddress {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

/** The parts of a mysql:// URL the client tools take; options after `?` are not passed on. */
export function addressOf(url: string): ServerAddress {
  const u = new URL(url);
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (database === '') throw new ArchiveError('the database URL names no database (mysql://user:password@host:port/DATABASE)', ARCHIVE_EXIT.usage);
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: u.port === '' ? 3306 : Number(u.port),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database,
  };
}

/** `url` naming another database on the same server ('' names none: the server alone). */
export function urlOfDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = database === '' ? '' : `/${encodeURIComponent(database)}`;
  return u.toString();
}

/** `name` quoted as a MariaDB identifier. */
export function ident(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

/** A value of an option file, quoted (backslash and quote escaped). */
function optionValue(v: string): string {
  return `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/**
 * Runs `fn` with the path of a `[client]` option file for `server`: in a directory of its
 * own (mode 0700), the file 0600, removed afterwards. TCP always: mysql2 reaches the URL's
 * host and port, and so do the tools (a `localhost` host would otherwise mean the socket).
 */
export async function withOptionFile<T>(server: ServerAddress, fn: (path: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'sfdb-archive-'));
  try {
    const path = join(dir, 'client.cnf');
    const lines = ['[client]', `host=${optionValue(server.host)}`, `port=${server.port}`, `user=${optionValue(server.user)}`, 'protocol=TCP'];
    if (server.password !== '') lines.push(`password=${optionValue(server.password)}`);
    writeFileSync(path, `${lines.join('\n')}\n`, { mode: 0o600 });
    return await fn(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A client tool by name: in SFDB_MARIADB_BIN_DIR first when set, then on PATH and in the system directories. */
export function clientTool(name: 'mariadb-dump' | 'mariadb', binDir: string | undefined): string {
  const found = (binDir !== undefined ? findBinary(name, binDir) : undefined) ?? findBinary(name);
  if (found === undefined) {
    throw new ArchiveError(`${name} not found: install it with \`apt-get install -y mariadb-client\` (mariadb-server brings it)`, ARCHIVE_EXIT.usage);
  }
  return found;
}

/**
 * Runs a client tool with stdin from `stdinFile` (or nothing) and stdout appended to
 * `stdoutFile` (or discarded); answers when it exits. Non-zero: an ArchiveError with the
 * last lines it wrote on stderr.
 */
export async function runTool(tool: string, args: string[], io: { stdinFile?: string; stdoutFile?: string; what: string }): Promise<void> {
  const stdin = io.stdinFile !== undefined ? openSync(io.stdinFile, 'r') : 'ignore';
  const stdout = io.stdoutFile !== undefined ? openSync(io.stdoutFile, 'a') : 'ignore';
  try {
    const child = spawn(tool, args, { stdio: [stdin, stdout, 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', (err) => reject(new ArchiveError(`${io.what}: cannot run ${tool} (${err.message})`, ARCHIVE_EXIT.failed)));
      child.once('close', (c) => resolve(c));
    });
    if (code !== 0) {
      const said = stderr.trim().split('\n').slice(-3).join('; ') || `exit ${code ?? 'by signal'}`;
      throw new ArchiveError(`${io.what} failed: ${said}`, ARCHIVE_EXIT.failed);
    }
  } finally {
    if (typeof stdin === 'number') closeSync(stdin);
    if (typeof stdout === 'number') closeSync(stdout);
  }
}
