// The tier's log: JSON lines on stderr (stdout carries command output and the one JSON
// serving line), one object per line, no key twice (the base names the replica; calls do
// not repeat it).
import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { MARIADB_ERRNO_NAMES } from './db/retryable.js';

export type { Logger };

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
