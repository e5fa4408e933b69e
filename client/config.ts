// Client configuration, parsed once: from explicit options, else SFDB_* environment, read
// with the words every side shares (proto/runtime/env.ts). Caller identity and node are fixed
// when a client is made.
import { readFileSync } from 'node:fs';
import { envValue, parseInteger, parseOnOff } from '@sfdb/proto/runtime/env';
import { UUID_PATTERN } from '@sfdb/proto/identity';
import { CALLER_DAEMON_RULE, isCallerDaemon } from '@sfdb/proto/metadata';

export interface ClientOptions {
  /**
   * Where the tier is: a `dns:///host:13005` name (every address it resolves to is used),
   * or a list of `ip:port` replicas. Default SFDB_TARGETS or 127.0.0.1:13005.
   */
  targets?: string | readonly string[];
  /**
   * How each call picks a replica among the READY ones: 'p2c' (two at random, the one
   * with fewer of this client's calls in flight; long-polls counted apart) or
   * 'round_robin' (grpc-js's, in turn). Default SFDB_BALANCE, else 'p2c'.
   */
  balance?: BalancePolicy;
  /** The calling daemon's name (x-sfdb-caller-daemon). Default SFDB_CALLER_DAEMON. */
  callerDaemon?: string;
  /** The calling node's uuid (x-sfdb-caller-node). Default SFDB_CALLER_NODE. */
  callerNode?: string;
  /** Deadline of every call, retries included. Default SFDB_DEADLINE_MS or 5000. */
  deadlineMs?: number;
  /** Attempts for a retryable call (reads; idempotent writes). Default 4. */
  maxAttempts?: number;
  /** First retry delay; doubles per attempt with full jitter. Default 50. */
  retryBaseMs?: number;
  /** Largest retry delay. Default 1000. */
  retryCapMs?: number;
  /**
   * Whether the client's cache hears other processes' writes through the change feed
   * (`db.changes`, attached the first time the cache stores an entry). Default
   * SFDB_CHANGE_FEED (an on/off word: off, false, no or 0 turns it off), else on. The
   * daemons' own feed mode is SFDB_DAEMON_FEED (daemons/settings.ts).
   */
  feed?: boolean;
  /**
   * mTLS: the CA that signed the tier's certificates and this process's certificate and
   * key (PEM). Default the files named by SFDB_TLS_CA, SFDB_TLS_CERT and SFDB_TLS_KEY;
   * `false` for plaintext whatever the environment says.
   */
  tls?: ClientTls | false;
}

/** PEM contents. A node's certificate names sfdb://node/<uuid> (proto/identity.ts). */
export interface ClientTls {
  readonly ca: Buffer;
  readonly cert: Buffer;
  readonly key: Buffer;
}

/** The client's load-balancing policies (`balance`, SFDB_BALANCE). */
export const BALANCE_POLICIES = ['p2c', 'round_robin'] as const;
export type BalancePolicy = (typeof BALANCE_POLICIES)[number];

export interface ResolvedClientOptions {
  readonly target: string;
  readonly balance: BalancePolicy;
  readonly callerDaemon: string;
  readonly callerNode: string;
  readonly deadlineMs: number;
  readonly maxAttempts: number;
  readonly retryBaseMs: number;
  readonly retryCapMs: number;
  readonly feed: boolean;
  readonly tls: ClientTls | undefined;
}

const IPV4_PORT = /^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/;
const IPV6_PORT = /^\[[0-9a-fA-F:]+\]:\d{1,5}$/;

function positiveInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name}: ${value} is not a positive integer`);
  return value;
}

/**
 * Turns targets into one grpc-js target string: a list of IPv4 (or IPv6) replicas
 * becomes `ipv4:a:p,b:p`; a single host:port becomes `dns:///host:port`.
 */
export function toTarget(targets: string | readonly string[]): string {
  const list = (typeof targets === 'string' ? targets.split(',') : [...targets]).map((t) => t.trim()).filter(Boolean);
  if (list.length === 0) throw new Error('targets: at least one is needed');
  if (list.length === 1) {
    const only = list[0] as string;
    if (/^[a-z0-9+.-]+:/.test(only) && !IPV4_PORT.test(only) && !/^[^:/]+:\d+$/.test(only)) return only; // dns:///…, ipv4:…, unix:…
    return IPV4_PORT.test(only) ? `ipv4:${only}` : `dns:///${only}`;
  }
  if (list.every((t) => IPV4_PORT.test(t))) return `ipv4:${list.join(',')}`;
  if (list.every((t) => IPV6_PORT.test(t))) return `ipv6:${list.join(',')}`;
  throw new Error('targets: a list must be all IPv4 or all IPv6 ip:port entries; for host names use one dns:///name:port');
}

export function resolveClientOptions(options: ClientOptions = {}, env: NodeJS.ProcessEnv = process.env): ResolvedClientOptions {
  const callerDaemon = options.callerDaemon ?? env['SFDB_CALLER_DAEMON'] ?? '';
  const callerNode = options.callerNode ?? env['SFDB_CALLER_NODE'] ?? '';
  if (callerNode !== '' && !UUID_PATTERN.test(callerNode)) throw new Error(`callerNode: "${callerNode}" is not a lower-case uuid`);
  if (callerDaemon !== '' && !isCallerDaemon(callerDaemon)) throw new Error(`callerDaemon: ${JSON.stringify(callerDaemon.slice(0, 80))} ${CALLER_DAEMON_RULE}`);
  const envDeadline = envValue(env, 'SFDB_DEADLINE_MS');
  const envFeed = envValue(env, 'SFDB_CHANGE_FEED');
  return Object.freeze({
    target: toTarget(options.targets ?? envValue(env, 'SFDB_TARGETS') ?? '127.0.0.1:13005'),
    balance: balancePolicy(options.balance, env['SFDB_BALANCE']),
    callerDaemon,
    callerNode,
    deadlineMs:
      options.deadlineMs !== undefined
        ? positiveInt('deadlineMs', options.deadlineMs)
        : envDeadline !== undefined
          ? parseInteger('SFDB_DEADLINE_MS', envDeadline, { min: 1 })
          : 5000,
    maxAttempts: positiveInt('maxAttempts', options.maxAttempts ?? 4),
    retryBaseMs: positiveInt('retryBaseMs', options.retryBaseMs ?? 50),
    retryCapMs: positiveInt('retryCapMs', options.retryCapMs ?? 1000),
    feed: options.feed ?? (envFeed === undefined ? true : parseOnOff('SFDB_CHANGE_FEED', envFeed)),
    tls: options.tls === false ? undefined : (options.tls ?? tlsFromEnv(env)),
  });
}

function balancePolicy(option: string | undefined, envValue: string | undefined): BalancePolicy {
  const name = option === undefined ? 'SFDB_BALANCE' : 'balance';
  const raw = option ?? (envValue?.trim() || 'p2c');
  if (!(BALANCE_POLICIES as readonly string[]).includes(raw)) throw new Error(`${name}: "${raw}" is not one of ${BALANCE_POLICIES.join(', ')}`);
  return raw as BalancePolicy;
}

/** SFDB_TLS_CA, SFDB_TLS_CERT, SFDB_TLS_KEY: all three files or none. */
function tlsFromEnv(env: NodeJS.ProcessEnv): ClientTls | undefined {
  const names = ['SFDB_TLS_CA', 'SFDB_TLS_CERT', 'SFDB_TLS_KEY'] as const;
  const paths = names.map((n) => env[n]?.trim() || undefined);
  if (paths.every((p) => p === undefined)) return undefined;
  const missing = names.filter((_, i) => paths[i] === undefined);
  if (missing.length > 0) throw new Error(`mTLS needs all of ${names.join(', ')}: ${missing.join(', ')} not set`);
  const [ca, cert, key] = paths.map((path, i) => {
    try {
      return readFileSync(path as string);
    } catch (err) {
      throw new Error(`${names[i]}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }) as [Buffer, Buffer, Buffer];
  return { ca, cert, key };
}

/** Settings of the static-object cache (docs/client.md, "Static-object cache"). */
export interface CacheSettings {
  /** TTL of immutable types (instance, network, ...); 0 disables the tier. */
  readonly immutableTtlMs: number;
  /** TTL of upgradeable types (node, blob, ...); 0 disables the tier. */
  readonly upgradeableTtlMs: number;
  /** Entries held at most, both tiers together. */
  readonly capacity: number;
}

export const DEFAULT_CACHE_SETTINGS: CacheSettings = Object.freeze({ immutableTtlMs: 300_000, upgradeableTtlMs: 30_000, capacity: 20_000 });

function intSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = envValue(env, name);
  return raw === undefined ? fallback : parseInteger(name, raw, { min });
}

/** The process-wide cache's settings: SFDB_CACHE_IMMUTABLE_TTL_MS, SFDB_CACHE_UPGRADEABLE_TTL_MS, SFDB_CACHE_CAPACITY. */
export function resolveCacheSettings(env: NodeJS.ProcessEnv = process.env): CacheSettings {
  return Object.freeze({
    immutableTtlMs: intSetting(env, 'SFDB_CACHE_IMMUTABLE_TTL_MS', DEFAULT_CACHE_SETTINGS.immutableTtlMs, 0),
    upgradeableTtlMs: intSetting(env, 'SFDB_CACHE_UPGRADEABLE_TTL_MS', DEFAULT_CACHE_SETTINGS.upgradeableTtlMs, 0),
    capacity: intSetting(env, 'SFDB_CACHE_CAPACITY', DEFAULT_CACHE_SETTINGS.capacity, 1),
  });
}
