// The tier's configuration, parsed once from SFDB_* environment variables and command
// line flags (flags win) into a frozen, typed object, and tracing from the standard OTEL_*
// ones (proto/runtime/tracing.ts). Nothing else reads process.env. Values are read with
// the words every side shares (proto/runtime/env.ts).
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { envValue, parseInteger, parseOnOff } from '@sfdb/proto/runtime/env';
import { tracingSettings } from '@sfdb/proto/runtime/tracing-env';
import { MAX_WAIT_MS } from '@sfdb/proto/topics';
import { ARCHIVE_FLAGS, ArchiveArgsError, archiveArgs } from './backup/args.js';
import type { ArchiveArgs } from './backup/args.js';
import { SETTINGS } from './settings.js';
import type { Config, TlsFiles } from './settings.js';

export type { Config, TlsFiles } from './settings.js';

export const DEFAULT_CALLER_DAEMONS = [
  'queues', 'net', 'transfers', 'sidechannel', 'resources', 'cleaner', 'cluster', 'agent',
  'sf-ctl', 'example', 'bench', 'test', 'sf-database',
];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** What an admin token may hold: URL- and header-safe, at least 16 characters. */
const ADMIN_TOKEN = /^[A-Za-z0-9._~+/=-]{16,512}$/;

/** `sf-database --help`: the commands, every flag with its variable (from SETTINGS), and the exit codes. */
export function usageText(): string {
  const rows = Object.values(SETTINGS).map((st) => [`--${st.flag}`, st.env, st.help] as const);
  const flagWidth = Math.max(...rows.map((r) => r[0].length));
  const envWidth = Math.max(...rows.map((r) => r[1].length));
  return [
    'usage: sf-database [serve] [flags]            run a replica (the default command)',
    '       sf-database migrate [flags]            apply pending migrations and exit',
    '       sf-database backup FILE [flags]        write a backup of the database',
    '       sf-database restore FILE --yes [flags] replace every table with a backup (every replica stopped)',
    '',
    'Without --database-url (SFDB_DATABASE_URL) every command uses the embedded MariaDB under .data/mariadb.',
    'Each flag has an environment variable; a flag wins over its variable.',
    '',
    ...rows.map(([flag, env, help]) => `  ${flag.padEnd(flagWidth)}  ${env.padEnd(envWidth)}  ${help}`),
    `  ${'--no-migrate'.padEnd(flagWidth)}  ${''.padEnd(envWidth)}  serve without applying pending migrations`,
    `  ${'--yes'.padEnd(flagWidth)}  ${''.padEnd(envWidth)}  restore: yes, replace every table`,
    `  ${'--bump N'.padEnd(flagWidth)}  ${''.padEnd(envWidth)}  restore: start every counter (epochs, tokens) at least N past the backup's highest`,
    `  ${'-h, --help'.padEnd(flagWidth)}  ${''.padEnd(envWidth)}  this help`,
    '',
    'exit codes: 0 stopped cleanly, 1 failed, 2 bad configuration or no mariadbd, 3 schema refused,',
    '            4 replica id held by a live replica, 5 registry row lost while running',
    'docs: docs/configuration.md, docs/settings.md',
    '',
  ].join('\n');
}

/**
 * Parses the configuration. `argv` is the arguments after the program name: an optional
 * command (`serve`, `migrate`, `backup FILE`, `restore FILE`) and flags (`--grpc-port
 * 13005` or `--grpc-port=13005`).
 */
export function parseConfig(env: NodeJS.ProcessEnv, argv: readonly string[]): Config {
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const s of Object.values(SETTINGS)) options[s.flag] = { type: 'string' };
  options['insecure'] = { type: 'boolean' };
  options['no-migrate'] = { type: 'boolean' };
  Object.assign(options, ARCHIVE_FLAGS);
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const flags = parsed.values as Record<string, string | boolean | undefined>;
  const [command = 'serve', ...rest] = parsed.positionals;
  if (command !== 'serve' && command !== 'migrate' && command !== 'backup' && command !== 'restore') {
    throw new ConfigError(`unknown command "${command}" (serve, migrate, backup, restore)`);
  }
  let archive: ArchiveArgs | undefined;
  try {
    archive = archiveArgs(command, rest, flags);
  } catch (err) {
    throw err instanceof ArchiveArgsError ? new ConfigError(err.message) : err;
  }

  const raw = (key: keyof typeof SETTINGS): string | undefined => {
    const s = SETTINGS[key];
    const flag = flags[s.flag];
    if (typeof flag === 'string') return flag;
    if (typeof flag === 'boolean') return String(flag);
    return envValue(env, s.env);
  };
  const label = (key: keyof typeof SETTINGS): string => `${SETTINGS[key].env} / --${SETTINGS[key].flag}`;
  const intOf = (key: keyof typeof SETTINGS, dflt: number, min: number, max: number): number => {
    const v = raw(key);
    return v === undefined ? dflt : parseInteger(label(key), v, { min, max }, ConfigError);
  };
  const boolOf = (key: keyof typeof SETTINGS, dflt: boolean): boolean => {
    const v = raw(key);
    return v === undefined ? dflt : parseOnOff(label(key), v, ConfigError);
  };

  const databaseUrl = raw('databaseUrl');
  if (databaseUrl !== undefined && !/^mysql:\/\//.test(databaseUrl) && !/^mariadb:\/\//.test(databaseUrl)) {
    throw new ConfigError(`${label('databaseUrl')}: expected mysql://user:password@host:port/database`);
  }
  const callerDaemons = new Set(
    (raw('callerDaemons') ?? DEFAULT_CALLER_DAEMONS.join(','))
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
  );
  const replicaId = raw('replicaId') ?? hostname();
  if (!/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/.test(replicaId)) {
    throw new ConfigError(`${label('replicaId')}: "${replicaId}" must be 1-128 of A-Z a-z 0-9 _ . : -`);
  }

  const config: Config = {
    command,
    archive,
    databaseUrl,
    dataDir: raw('dataDir') ?? '.data/mariadb',
    mariadbBinDir: raw('mariadbBinDir'),
    embeddedPort: intOf('embeddedPort', 0, 0, 65535),
    grpcHost: raw('grpcHost') ?? '127.0.0.1',
    grpcPort: intOf('grpcPort', 13005, 0, 65535),
    httpHost: raw('httpHost') ?? '127.0.0.1',
    httpPort: intOf('httpPort', 13006, 0, 65535),
    insecure: flags['insecure'] === true || boolOf('insecure', false),
    tlsCa: raw('tlsCa'),
    tlsCert: raw('tlsCert'),
    tlsKey: raw('tlsKey'),
    tls: readTls(raw('tlsCa'), raw('tlsCert'), raw('tlsKey'), label),
    replicaId,
    poolSize: intOf('poolSize', 16, 1, 1000),
    migrate: flags['no-migrate'] === true ? false : boolOf('migrate', true),
    drainGraceMs: intOf('drainGraceMs', 10_000, 0, 600_000),
    readyzTimeoutMs: intOf('readyzTimeoutMs', 1_000, 10, 60_000),
    rateLimitNodeRps: intOf('rateLimitNodeRps', 2_000, 0, 1_000_000),
    rateLimitNodeBurst: intOf('rateLimitNodeBurst', 4_000, 1, 10_000_000),
    rateLimitDaemonRps: intOf('rateLimitDaemonRps', 1_000, 0, 1_000_000),
    rateLimitDaemonBurst: intOf('rateLimitDaemonBurst', 2_000, 1, 10_000_000),
    poolQueueLimit: intOf('poolQueueLimit', 128, 0, 1_000_000),
    preparedStatements: intOf('preparedStatements', 128, 1, 16_000),
    groupCommitMs: intOf('groupCommitMs', 100, 0, 1000),
    groupCommitPeriodicMs: intOf('groupCommitPeriodicMs', 500, 0, 2_000),
    groupCommitMaxCalls: intOf('groupCommitMaxCalls', 200, 1, 10_000),
    slowStatementMs: intOf('slowStatementMs', 500, 0, 3_600_000),
    databaseDownAfterMs: intOf('databaseDownAfterMs', 8_000, 100, 600_000),
    grpcMaxMetadataBytes: intOf('grpcMaxMetadataBytes', 16_384, 4_096, 1_048_576),
    grpcMaxConcurrentStreams: intOf('grpcMaxConcurrentStreams', 100, 8, 65_536),
    grpcMaxConnectionBacklogBytes: intOf('grpcMaxConnectionBacklogBytes', 16 * 1_048_576, 65_536, 2 ** 40),
    grpcMaxReplicaBacklogBytes: intOf('grpcMaxReplicaBacklogBytes', 128 * 1_048_576, 65_536, 2 ** 40),
    maxConnectionAgeMs: intOf('maxConnectionAgeMs', 300_000, 1_000, 86_400_000),
    maxConnectionAgeGraceMs: intOf('maxConnectionAgeGraceMs', 60_000, 1_000, 3_600_000),
    defaultClaimLeaseMs: intOf('defaultClaimLeaseMs', 60_000, 1_000, 86_400_000),
    replicaHeartbeatMs: intOf('replicaHeartbeatMs', 5_000, 50, 600_000),
    replicaLiveMs: intOf('replicaLiveMs', 15_000, 100, 3_600_000),
    replicaSweepAfterMs: intOf('replicaSweepAfterMs', 60_000, 100, 86_400_000),
    advertiseAddress: raw('advertiseAddress') ?? '',
    advertiseMetricsAddress: raw('advertiseMetricsAddress') ?? '',
    nodeLiveMs: intOf('nodeLiveMs', 30_000, 100, 3_600_000),
    clusterSizeMs: intOf('clusterSizeMs', 30_000, 1_000, 3_600_000),
    callerDaemons,
    callerDaemonsMax: intOf('callerDaemonsMax', 32, 0, 1_000),
    logLevel: raw('logLevel') ?? 'info',
    changefeedTailMs: intOf('changefeedTailMs', 2_000, 10, 60_000),
    leaseWatchMs: intOf('leaseWatchMs', 30_000, 100, 3_600_000),
    changefeedGapTimeoutMs: intOf('changefeedGapTimeoutMs', 5_000, 10, 600_000),
    changefeedGapCloseMs: intOf('changefeedGapCloseMs', 1_000, 0, 600_000),
    changefeedRetentionMs: intOf('changefeedRetentionMs', 600_000, 1_000, 30 * 86_400_000),
    retiredCounterRetentionMs: intOf('retiredCounterRetentionMs', 86_400_000, 1_000, 365 * 86_400_000),
    changefeedWindow: intOf('changefeedWindow', 50_000, 100, 10_000_000),
    changefeedMaxWaiters: intOf('changefeedMaxWaiters', 20_000, 1, 1_000_000),
    changefeedPokes: boolOf('changefeedPokes', true),
    peerProbeMs: intOf('peerProbeMs', 250, 10, 60_000),
    peerUnresponsiveMs: intOf('peerUnresponsiveMs', 1_300, 20, 600_000),
    admin: boolOf('admin', true),
    adminToken: raw('adminToken') ?? '',
    adminBudget: raw('adminBudget') ?? '',
    tracing: tracingSettings(env, 'sf-database', ConfigError),
  };

  if (config.replicaLiveMs < 2 * config.replicaHeartbeatMs) {
    throw new ConfigError(
      `${label('replicaLiveMs')} (${config.replicaLiveMs}) must be at least twice ${label('replicaHeartbeatMs')} (${config.replicaHeartbeatMs})`,
    );
  }
  if (config.replicaSweepAfterMs < config.replicaLiveMs) {
    throw new ConfigError(`${label('replicaSweepAfterMs')} must not be shorter than ${label('replicaLiveMs')}`);
  }
  if (config.changefeedGapCloseMs >= config.changefeedGapTimeoutMs) {
    // A gap given up before it is tried cannot be told from an open transaction.
    throw new ConfigError(`${label('changefeedGapCloseMs')} (${config.changefeedGapCloseMs}) must be below ${label('changefeedGapTimeoutMs')} (${config.changefeedGapTimeoutMs})`);
  }
  if (config.peerUnresponsiveMs < 2 * config.peerProbeMs) {
    // Fewer than two probes in the window: one probe late by scheduling would name a live peer.
    throw new ConfigError(`${label('peerUnresponsiveMs')} (${config.peerUnresponsiveMs}) must be at least twice ${label('peerProbeMs')} (${config.peerProbeMs})`);
  }
  if (config.maxConnectionAgeGraceMs <= MAX_WAIT_MS) {
    // A recycled connection must outlive the longest long-poll, or WaitForChanges is cut.
    throw new ConfigError(`${label('maxConnectionAgeGraceMs')} must exceed the longest long-poll (${MAX_WAIT_MS} ms)`);
  }
  const loopback = (h: string): boolean => h === '127.0.0.1' || h === '::1' || h === 'localhost';
  // With mTLS the gRPC port may face the network; the HTTP port serves only metrics and
  // probes (no data, no writes), so it follows the gRPC port's protection.
  if (!config.insecure && !config.tls && (!loopback(config.grpcHost) || !loopback(config.httpHost))) {
    throw new ConfigError(
      `binding ${config.grpcHost}/${config.httpHost} beyond loopback without TLS needs SFDB_TLS_CA/CERT/KEY, or --insecure (SFDB_INSECURE=true)`,
    );
  }
  // The admin view: never the token's value in a message.
  if (config.adminToken !== '' && !ADMIN_TOKEN.test(config.adminToken)) {
    throw new ConfigError(`${label('adminToken')}: must be 16-512 characters of A-Z a-z 0-9 . _ ~ + / = - (e.g. openssl rand -hex 24)`);
  }
  if (config.admin && config.adminToken === '' && !loopback(config.httpHost)) {
    throw new ConfigError(
      `the HTTP port binds ${config.httpHost}, beyond loopback: the admin view (/admin) needs a bearer token there: set ${label('adminToken')}, or turn the view off with SFDB_ADMIN=false`,
    );
  }
  return Object.freeze(config);
}

/** All three files or none; each must be readable PEM. */
function readTls(ca: string | undefined, cert: string | undefined, key: string | undefined, label: (key: 'tlsCa' | 'tlsCert' | 'tlsKey') => string): TlsFiles | undefined {
  const given = { tlsCa: ca, tlsCert: cert, tlsKey: key };
  const set = Object.entries(given).filter(([, v]) => v !== undefined && v !== '');
  if (set.length === 0) return undefined;
  if (set.length < 3) {
    const missing = (Object.keys(given) as (keyof typeof given)[]).filter((k) => !given[k]).map(label);
    throw new ConfigError(`mTLS needs all of SFDB_TLS_CA, SFDB_TLS_CERT and SFDB_TLS_KEY: ${missing.join(', ')} not set`);
  }
  const read = (k: keyof typeof given): Buffer => {
    const path = given[k] as string;
    let text: Buffer;
    try {
      text = readFileSync(path);
    } catch (err) {
      throw new ConfigError(`${label(k)}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    if (!text.includes('-----BEGIN ')) throw new ConfigError(`${label(k)}: ${path} is not a PEM file`);
    return text;
  };
  return { ca: read('tlsCa'), cert: read('tlsCert'), key: read('tlsKey') };
}
