// The deposed holder, a fault of the fault ledger: a process that holds a lease and
// writes under its fence (deposed-holder-child.ts) is SIGSTOPped past its lease, another
// process (this one) takes the lease meanwhile, and the holder is resumed and goes on
// writing with its old fence. Every write it sends after the resume must be refused
// (`Fenced`) and none may land: the rows are read from MariaDB, not taken from the
// answers. Every wait is bounded and fails with what it last saw. Run by bench:faults
// after its phases and by test/chaos/deposed-holder.test.ts.
import type { ChildProcess } from 'node:child_process';
import type { Connection } from 'mysql2/promise';
import { childEnv, eachLine, spawnTs } from '../../harness/children.js';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import type { FaultProcesses } from './processes.js';
import { openDirect } from './verify.js';

export interface DeposedHolderOptions {
  /** The tier the holder dials (host:port). */
  target: string;
  /** The other process's client: it takes the lease while the holder is stopped. */
  rival: DatabaseClient;
  /** The keys of `keys` that are rows of cluster_config, read from MariaDB itself. */
  landed: (keys: readonly string[]) => Promise<string[]>;
  /** The holder's lease (ms; the tier's minimum is 1000). */
  ttlMs: number;
  /** Writes the holder sends after its resume before it is stopped. */
  writesAfterResume: number;
  /** The bound of each wait (ms). */
  waitMs: number;
  log: (message: string) => void;
}

export interface DeposedHolderResult {
  holderToken: string;
  rivalToken: string;
  /** SIGSTOP → SIGCONT (ms). */
  pausedMs: number;
  writtenBeforePause: number;
  /** Writes sent after the resume, answered. */
  sentAfterResume: number;
  /** Of those, refused Fenced (must be all). */
  fencedAfterResume: number;
  /** Of those, acknowledged (must be 0). */
  writtenAfterResume: number;
  /** Refused writes whose row MariaDB holds (must be none). */
  refusedButLanded: string[];
  /** Acknowledged writes whose row MariaDB lacks (must be none). */
  writtenButMissing: string[];
}

interface WriteEvent {
  event: 'written' | 'refused';
  key: string;
  sentAt: number;
  token: string;
  error?: string;
}

async function until<T>(what: string, waitMs: number, look: () => T | undefined | Promise<T | undefined>, seen: () => string): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const found = await look();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`deposed holder: no ${what} within ${waitMs} ms; last seen: ${seen()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function runDeposedHolder(o: DeposedHolderOptions): Promise<DeposedHolderResult> {
  const name = `faults/deposed-${process.pid}-${Date.now()}`;
  const writes: WriteEvent[] = [];
  const lines: string[] = [];
  const child: ChildProcess = spawnTs('bench/faults/deposed-holder-child.ts', [], {
    env: childEnv({ SFDB_TARGETS: o.target, LEASE_NAME: name, HOLDER: 'deposed', TTL_MS: String(o.ttlMs), KEY_PREFIX: name.replace(/[^a-z0-9]/g, '.'), WRITE_EVERY_MS: '20' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  eachLine(child.stdout, (line) => {
    lines.push(line);
    const e = JSON.parse(line) as WriteEvent | { event: string };
    if (e.event === 'written' || e.event === 'refused') writes.push(e as WriteEvent);
  });
  let gone = false;
  child.once('exit', () => (gone = true));
  const seen = (): string => `${lines.slice(-5).join(' | ')} ${stderr.slice(-500)}`;
  try {
    // Holding, and writing: three acknowledged writes.
    await until('three acknowledged writes', o.waitMs, () => (writes.filter((w) => w.event === 'written').length >= 3 ? true : undefined), seen);
    const holderToken = (writes[0] as WriteEvent).token;
    child.kill('SIGSTOP');
    const pausedAt = Date.now();
    o.log(`deposed holder: SIGSTOP at token ${holderToken}; taking its lease from here`);
    // Its lease runs out while it is stopped (no renewal), and this process takes it.
    const rival = await until(
      'takeover by the rival',
      o.ttlMs + o.waitMs,
      async () => {
        const r = await o.rival.acquireLease(name, 'rival', 60_000);
        return r.acquired ? r.lease.token : undefined;
      },
      seen,
    );
    const resumedAt = Date.now();
    child.kill('SIGCONT');
    o.log(`deposed holder: SIGCONT after ${resumedAt - pausedAt} ms; the rival holds token ${rival}`);
    const after = (): WriteEvent[] => writes.filter((w) => w.sentAt >= resumedAt);
    await until(`${o.writesAfterResume} writes sent after the resume`, o.waitMs, () => (after().length >= o.writesAfterResume ? true : undefined), seen);
    child.kill('SIGTERM');
    await until('the holder to exit', o.waitMs, () => (gone ? true : undefined), seen);
    await o.rival.releaseLease(name, 'rival', rival);

    const sent = after();
    const refusedKeys = writes.filter((w) => w.event === 'refused').map((w) => w.key);
    const writtenKeys = writes.filter((w) => w.event === 'written').map((w) => w.key);
    const landedWritten = new Set(await o.landed(writtenKeys));
    return {
      holderToken,
      rivalToken: rival,
      pausedMs: resumedAt - pausedAt,
      writtenBeforePause: writes.filter((w) => w.event === 'written' && w.sentAt < pausedAt).length,
      sentAfterResume: sent.length,
      fencedAfterResume: sent.filter((w) => w.event === 'refused' && w.error === 'Fenced').length,
      writtenAfterResume: sent.filter((w) => w.event === 'written').length,
      refusedButLanded: await o.landed(refusedKeys),
      writtenButMissing: writtenKeys.filter((k) => !landedWritten.has(k)),
    };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    }
  }
}

/** DeposedHolderOptions.landed on a direct connection to MariaDB: the keys that are rows of cluster_config. */
export function configKeysIn(conn: Connection): (keys: readonly string[]) => Promise<string[]> {
  return async (keys) => {
    if (keys.length === 0) return [];
    const [rows] = await conn.query('SELECT config_key FROM cluster_config WHERE config_key IN (?)', [keys]);
    return (rows as { config_key: string }[]).map((r) => r.config_key);
  };
}

/** The deposed holder against a fault run's processes (bench:faults, after its phases): its first replica, MariaDB read directly. */
export async function runDeposedOn(procs: FaultProcesses, log: (message: string) => void): Promise<DeposedHolderResult> {
  // Replica a, or its replacement on its address.
  const target = procs.replica('a').address;
  const rival = createClient({ targets: target, callerDaemon: 'deposed-rival', deadlineMs: 2000 });
  const conn = await openDirect(procs.mariadb.url);
  try {
    return await runDeposedHolder({
      target,
      rival,
      landed: configKeysIn(conn),
      ttlMs: 1000,
      writesAfterResume: 20,
      waitMs: 20_000,
      log,
    });
  } finally {
    rival.close();
    await conn.end();
  }
}

/** What a run of the deposed holder got wrong ([] when nothing). */
export function deposedProblems(r: DeposedHolderResult): string[] {
  const out: string[] = [];
  if (r.writtenAfterResume > 0) out.push(`deposed holder: ${r.writtenAfterResume} write(s) sent after the resume were acknowledged`);
  if (r.fencedAfterResume !== r.sentAfterResume) out.push(`deposed holder: ${r.sentAfterResume - r.fencedAfterResume} of ${r.sentAfterResume} writes after the resume were not refused Fenced`);
  if (r.refusedButLanded.length > 0) out.push(`deposed holder: refused writes landed: ${r.refusedButLanded.join(', ')}`);
  if (r.writtenButMissing.length > 0) out.push(`deposed holder: acknowledged writes missing: ${r.writtenButMissing.join(', ')}`);
  return out;
}
