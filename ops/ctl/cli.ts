// What every sf-ctl subcommand shares: exit codes, errors that carry one, the global
// options, argument parsing helpers. Pure apart from the Io it is handed.
import type { ParseArgsConfig } from 'node:util';

/** sf-ctl's exit codes (documented in `sf-ctl --help`). */
export const EXIT = {
  ok: 0,
  /** a pair over its ceiling, an unbudgeted steady pair, a daemon that did not stop (or start), a refused call */
  failed: 1,
  /** bad arguments */
  usage: 2,
  /** a replica unreachable, a scrape failed, a replica gone between scrapes */
  unreachable: 3,
} as const;

/** An error sf-ctl reports as one line `sf-ctl: <message>` and exits with `exitCode`. */
export class CtlError extends Error {
  override name = 'CtlError';
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
  }
}

/** A bad argument: names the flag and the accepted form; exit 2. */
export class UsageError extends CtlError {
  override name = 'UsageError';
  constructor(message: string) {
    super(message, EXIT.usage);
  }
}

/** Where a command writes: stdout (results), stderr (progress, warnings), and the environment. */
export interface Io {
  out(text: string): void;
  /** One line on stderr, prefixed `sf-ctl: `. */
  note(line: string): void;
  readonly env: NodeJS.ProcessEnv;
}

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface Parsed {
  values: Values;
  positionals: string[];
}

export interface Command {
  name: string;
  /** One line for `sf-ctl --help`. */
  summary: string;
  /** The whole `sf-ctl <command> --help` text. */
  help: string;
  options: Options;
  /** Positional arguments accepted (stop-daemon, start-daemon: NODE DAEMON; migrate: what follows `--`). */
  positionals?: boolean;
  run(args: Parsed, io: Io): Promise<number>;
}

/** Accepted by every command, before or after its name. */
export const GLOBAL_OPTIONS: Options = {
  target: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

export const GLOBAL_HELP = `global options:
  --target host:port   gRPC address of any replica (default: SFDB_TARGETS, else 127.0.0.1:13005)
  --json               machine-readable output (read commands)
  -h, --help           this help`;

export function str(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

export function flag(values: Values, name: string): boolean {
  return values[name] === true;
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** '30s', '500ms', '2m', '1.5s' → ms; anything else is a UsageError naming `flagName`. */
export function parseDuration(flagName: string, raw: string, limits: { minMs?: number; maxMs?: number } = {}): number {
  const m = DURATION.exec(raw.trim());
  const ms = m ? Math.round(Number(m[1]) * (UNIT_MS[m[2] as string] as number)) : NaN;
  const accepted = 'a duration such as 500ms, 30s, 2m';
  if (!Number.isFinite(ms) || ms <= 0) throw new UsageError(`${flagName}: "${raw}" is not ${accepted}`);
  const { minMs = 1, maxMs = 24 * 3_600_000 } = limits;
  if (ms < minMs || ms > maxMs) {
    throw new UsageError(`${flagName}: "${raw}" is out of range (${formatDurationMs(minMs)} to ${formatDurationMs(maxMs)})`);
  }
  return ms;
}

/** 2000 → '2s', 1500 → '1.5s', 120000 → '2m', 3600000 → '1h', 250 → '250ms'. */
export function formatDurationMs(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60_000 || ms % 60_000 !== 0) return `${Number((ms / 1000).toFixed(3))}s`;
  if (ms % 3_600_000 !== 0) return `${ms / 60_000}m`;
  return `${ms / 3_600_000}h`;
}

const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/** One `host:port` (an IPv6 host in brackets), port 1..65535. */
export function isHostPort(value: string): boolean {
  const m = HOST_PORT.exec(value);
  if (!m) return false;
  const port = Number(m[2]);
  return port >= 1 && port <= 65535;
}

/** 'a:1,b:2' → ['a:1', 'b:2']; anything else is a UsageError naming `flagName`. */
export function parseAddressList(flagName: string, raw: string): string[] {
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0) throw new UsageError(`${flagName}: empty; expected host:port[,host:port…]`);
  for (const a of list) if (!isHostPort(a)) throw new UsageError(`${flagName}: "${a}" is not host:port; expected host:port[,host:port…]`);
  return list;
}

/**
 * Splits argv into the command name and everything else (global options may come before
 * it). `--target X` is skipped as a pair so its value is never taken for the command.
 */
export function splitCommand(argv: readonly string[]): { command: string | undefined; rest: string[] } {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') break;
    if (a === '--target') {
      i += 1;
      continue;
    }
    if (a.startsWith('-')) continue;
    return { command: a, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
  }
  return { command: undefined, rest: [...argv] };
}

/** node:util parseArgs' own errors, as a UsageError that points at the command's help. */
export function usageFromParseError(err: unknown, command: string): UsageError {
  const message = (err as Error).message.replace(/\. To specify a positional argument.*$/s, '').replace(/\s+/g, ' ');
  return new UsageError(`${command}: ${message} (see sf-ctl ${command} --help)`);
}
