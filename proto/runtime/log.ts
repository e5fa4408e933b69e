// The log of every process of the project (the tier, sf-daemon, the tools): JSON lines on
// stderr (stdout carries command output and the tier's one JSON serving line), one object
// per line, no key twice (the base names the process; calls do not repeat it), errors
// through one serializer.
import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';

export type { Logger };

/** MariaDB's own names for the errnos it numbers differently from MySQL (from 1900 on). */
const MARIADB_ERRNO_NAMES: ReadonlyMap<number, string> = new Map([
  [1927, 'ER_CONNECTION_KILLED'],
  [1969, 'ER_STATEMENT_TIMEOUT'],
  [4025, 'ER_CONSTRAINT_FAILED'],
]);

/**
 * mysql2 names an errno from MySQL's table. From 1900 on MariaDB numbers its own errors
 * differently (4025 is MariaDB's ER_CONSTRAINT_FAILED, MySQL's ER_INNODB_AUTOEXTEND_…), so
 * there the name is MariaDB's when we know it, and absent otherwise: errno and sqlState
 * are logged as they came.
 */
export function serializeError(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  const errno = (err as { errno?: unknown } | null)?.errno;
  if (typeof errno === 'number' && errno >= 1900) {
    const name = MARIADB_ERRNO_NAMES.get(errno);
    if (name) out['code'] = name;
    else delete out['code'];
  }
  return out;
}

export function createLogger(level: string, base: Record<string, unknown> = {}, destination: DestinationStream = pino.destination(2)): Logger {
  return pino({ level, base: { ...base }, serializers: { err: serializeError } }, destination);
}
