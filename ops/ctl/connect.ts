// sf-ctl's client of the tier: the client's own target parsing (SFDB_TARGETS as default),
// caller daemon `sf-ctl`, a 5 s deadline on every call, no cache, no change waiter; and
// the one place client errors become sf-ctl's one-line errors and exit codes.
import { status } from '@grpc/grpc-js';
import { DatabaseError, DatabaseUnavailable, createClient, resolveClientOptions } from '@sfdb/client';
import type { DatabaseClient } from '@sfdb/client';
import { CtlError, EXIT, UsageError, isHostPort } from './cli.js';

/** The caller_daemon sf-ctl's calls are counted under (on the tier's allow-list). */
export const CTL_CALLER = 'sf-ctl';
/** Deadline of every sf-ctl call, retries included: a dead target never hangs it. */
export const CTL_DEADLINE_MS = 5000;

export interface Tier {
  db: DatabaseClient;
  /** The target as an operator reads it: '127.0.0.1:13005', 'db.example:13005'. */
  address: string;
}

/** 'ipv4:127.0.0.1:13005' → '127.0.0.1:13005'; 'dns:///h:1' → 'h:1'. */
export function displayTarget(target: string): string {
  return target.replace(/^(ipv4:|ipv6:|dns:\/\/\/)/, '');
}

/** host:port, a comma list of them, or a grpc-js target with its scheme (dns:///h:p, ipv4:…, unix:…). */
export function acceptedTarget(target: string): boolean {
  if (/^(dns|ipv4|ipv6|unix):\S+$/.test(target)) return true;
  const list = target.split(',').map((t) => t.trim());
  return list.length > 0 && list.every(isHostPort);
}

/**
 * A client for `--target` (undefined: the client's default, SFDB_TARGETS else
 * 127.0.0.1:13005). The target is parsed by the client's own resolveClientOptions.
 */
export function connect(target: string | undefined): Tier {
  const options = { targets: target, callerDaemon: CTL_CALLER, callerNode: '', deadlineMs: CTL_DEADLINE_MS, cache: false as const, feed: false };
  let resolved;
  try {
    if (target !== undefined && !acceptedTarget(target)) throw new Error(`"${target}" is not host:port`);
    resolved = resolveClientOptions(options);
  } catch (err) {
    const source = target === undefined ? 'SFDB_TARGETS' : '--target';
    throw new UsageError(`${source}: ${(err as Error).message}; expected host:port, a comma list of ip:port, or dns:///host:port`);
  }
  const db = createClient(options); // the same options, parsed the same way
  return { db, address: displayTarget(resolved.target) };
}

function codeName(code: number): string {
  return (status as unknown as Record<number, string>)[code] ?? String(code);
}

/**
 * grpc-js details, shortened to what an operator acts on: 'round_robin: No connection
 * established. Last error: Error: connect ECONNREFUSED 127.0.0.1:1. Resolution note:' →
 * 'connect ECONNREFUSED 127.0.0.1:1'. One line.
 */
export function tidyDetails(text: string): string {
  let t = text.replace(/\s+/g, ' ').trim();
  const last = t.lastIndexOf('Last error:');
  if (last >= 0) t = t.slice(last + 'Last error:'.length).trim();
  t = t.replace(/\.?\s*Resolution note:.*$/, '').replace(/^Error:\s*/, '').trim();
  return t || text.replace(/\s+/g, ' ').trim();
}

function details(err: DatabaseError): string {
  const cause = err.cause as { details?: unknown } | undefined;
  return tidyDetails(typeof cause?.details === 'string' && cause.details !== '' ? cause.details : err.message);
}

/** Any error of a command as a CtlError: unreachable → exit 3, the tier refused → exit 1. */
export function toCtlError(err: unknown, address: string): CtlError {
  if (err instanceof CtlError) return err;
  if (err instanceof DatabaseUnavailable) {
    return new CtlError(`cannot reach replica ${address} (${codeName(err.code)}: ${details(err)})`, EXIT.unreachable);
  }
  if (err instanceof DatabaseError) return new CtlError(`${err.operation} refused by ${address} (${codeName(err.code)}: ${details(err)})`, EXIT.failed);
  return new CtlError(((err as Error).message ?? String(err)).replace(/\s+/g, ' '), EXIT.failed);
}

/** Runs `body` with a client, closes it, and maps its errors. */
export async function withTier<T>(target: string | undefined, body: (tier: Tier) => Promise<T>): Promise<T> {
  const tier = connect(target);
  try {
    return await body(tier);
  } catch (err) {
    throw toCtlError(err, tier.address);
  } finally {
    tier.db.close();
  }
}

/** Runs `work` over `items` with at most `limit` at once, answers in order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
