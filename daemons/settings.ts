// Daemon settings, parsed once from SFDB_* environment into a frozen object, with the
// words every side shares (proto/runtime/env.ts); and sf-daemon's tracing from the standard
// OTEL_* variables (proto/runtime/tracing-env.ts). Durations are milliseconds. Nothing
// else in daemons/ reads process.env.
import { envValue, parseInteger, parseIntegerList, parseOnOff } from '@sfdb/proto/runtime/env';
import { tracingSettings } from '@sfdb/proto/runtime/tracing-env';
import type { TracingSettings } from '@sfdb/proto/runtime/tracing-env';

/** pino's levels, and `silent`. */
export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface DaemonSettings {
  /** The tick of an idle hook that polls (the cluster bench's naive mode); the framework's own idle waits without ticking. */
  readonly idleTickMs: number;
  /** At most one daemon-state read per this interval while idle (the operator-stop duty). */
  readonly daemonStatePollMs: number;
  /** The poll interval doubles on DatabaseUnavailable up to this, and snaps back on success. */
  readonly daemonStatePollMaxMs: number;
  /** Empty-queue backoff: successive waits after empty dequeues; the last one repeats. */
  readonly dequeueBackoffMs: readonly number[];
  /** Most claims per Dequeue (also bounded by free worker slots). */
  readonly dequeueBatch: number;
  /** Worker pool size of the queues daemon. */
  readonly queueWorkers: number;
  /** Claim lease asked for by the queues daemon; claims are renewed at a third of it. */
  readonly claimLeaseMs: number;
  /** Node heartbeat interval of the agent daemon. */
  readonly nodeHeartbeatMs: number;
  /** Maintenance lease of the cluster daemon; standbys try every third of it. */
  readonly maintenanceLeaseMs: number;
  /** Recovery sweep (requeue expired claims) interval of the elected cluster daemon. */
  readonly recoverySweepMs: number;
  /** Stale registry sweep interval of the elected cluster daemon. */
  readonly registrySweepMs: number;
  /** Event pruning interval and retention of the elected cluster daemon. */
  readonly eventPruneMs: number;
  readonly eventRetentionMs: number;
  /** Change-feed pruning interval of the elected cluster daemon (the retention is the tier's). */
  readonly changePruneMs: number;
  /**
   * Feed mode: idle waits on the change feed (the daemon's state and its work's topics)
   * instead of polling; the polls remain as the fallback when the feed is unavailable.
   */
  readonly feed: boolean;
  /** How long a stopping daemon keeps trying to record STOPPED while the tier cannot answer (inside a supervisor's 30 s stop timeout). */
  readonly stopReportMs: number;
  /** The level of the daemon's own logger when none is given (DaemonOptions.log): `silent` quiets it (tests). */
  readonly logLevel: LogLevel;
  /** Feed mode: work polls the feed replaces (dequeue) still run this often (5 min): a guard against a fault of the feed itself, a statement per process each time. Items due by time are looked for when due (next_due_in_ms). */
  readonly feedSafetyPollMs: number;
}

export const DEFAULT_DAEMON_SETTINGS: DaemonSettings = Object.freeze({
  idleTickMs: 200,
  daemonStatePollMs: 2000,
  daemonStatePollMaxMs: 60_000,
  dequeueBackoffMs: Object.freeze([200, 400, 800, 1600, 2000]),
  dequeueBatch: 8,
  queueWorkers: 4,
  claimLeaseMs: 60_000,
  nodeHeartbeatMs: 10_000,
  maintenanceLeaseMs: 30_000,
  recoverySweepMs: 30_000,
  registrySweepMs: 30_000,
  eventPruneMs: 300_000,
  eventRetentionMs: 7 * 24 * 3600 * 1000,
  changePruneMs: 60_000,
  feed: true,
  stopReportMs: 10_000,
  logLevel: 'info',
  feedSafetyPollMs: 300_000,
});

const ENV: Record<keyof DaemonSettings, string> = {
  idleTickMs: 'SFDB_IDLE_TICK_MS',
  daemonStatePollMs: 'SFDB_DAEMON_STATE_POLL_MS',
  daemonStatePollMaxMs: 'SFDB_DAEMON_STATE_POLL_MAX_MS',
  dequeueBackoffMs: 'SFDB_DEQUEUE_BACKOFF_MS',
  dequeueBatch: 'SFDB_DEQUEUE_BATCH',
  queueWorkers: 'SFDB_QUEUE_WORKERS',
  claimLeaseMs: 'SFDB_CLAIM_LEASE_MS',
  nodeHeartbeatMs: 'SFDB_NODE_HEARTBEAT_MS',
  maintenanceLeaseMs: 'SFDB_MAINTENANCE_LEASE_MS',
  recoverySweepMs: 'SFDB_RECOVERY_SWEEP_MS',
  registrySweepMs: 'SFDB_REGISTRY_SWEEP_MS',
  eventPruneMs: 'SFDB_EVENT_PRUNE_MS',
  eventRetentionMs: 'SFDB_EVENT_RETENTION_MS',
  changePruneMs: 'SFDB_CHANGE_PRUNE_MS',
  feed: 'SFDB_DAEMON_FEED',
  stopReportMs: 'SFDB_DAEMON_STOP_REPORT_MS',
  logLevel: 'SFDB_LOG_LEVEL',
  feedSafetyPollMs: 'SFDB_FEED_SAFETY_POLL_MS',
};

export class DaemonSettingsError extends Error {
  override name = 'DaemonSettingsError';
}

/** Every integer setting is positive. */
const POSITIVE = { min: 1 } as const;

/** Settings from the environment, over the defaults, over `overrides` (tests, simulators). */
export function daemonSettings(env: NodeJS.ProcessEnv = process.env, overrides: Partial<DaemonSettings> = {}): DaemonSettings {
  const out: Record<string, unknown> = { ...DEFAULT_DAEMON_SETTINGS };
  for (const [key, name] of Object.entries(ENV) as [keyof DaemonSettings, string][]) {
    const raw = envValue(env, name);
    if (raw === undefined) continue;
    if (key === 'feed') out[key] = parseOnOff(name, raw, DaemonSettingsError);
    else if (key === 'logLevel') out[key] = logLevel(name, raw);
    else if (key === 'dequeueBackoffMs') out[key] = Object.freeze(parseIntegerList(name, raw, POSITIVE, DaemonSettingsError));
    else out[key] = parseInteger(name, raw, POSITIVE, DaemonSettingsError);
  }
  const s = { ...out, ...overrides } as DaemonSettings;
  if (s.idleTickMs > s.daemonStatePollMs) throw new DaemonSettingsError('SFDB_IDLE_TICK_MS must not exceed SFDB_DAEMON_STATE_POLL_MS');
  if (s.dequeueBackoffMs.length === 0) throw new DaemonSettingsError('SFDB_DEQUEUE_BACKOFF_MS needs at least one step');
  return Object.freeze(s);
}

export const SETTING_ENV = ENV;

/** sf-daemon's tracing (OTEL_TRACES_EXPORTER and the rest; docs/tracing.md): undefined for none. */
export function daemonTracing(env: NodeJS.ProcessEnv = process.env): TracingSettings | undefined {
  return tracingSettings(env, 'sf-daemon', DaemonSettingsError);
}

function logLevel(name: string, raw: string): LogLevel {
  const level = raw.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new DaemonSettingsError(`${name} must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(raw.slice(0, 40))}`);
  return level as LogLevel;
}
