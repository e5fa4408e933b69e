import { pino } from 'pino';
import type { Logger } from 'pino';

export type { Logger };

/** JSON lines on stderr; stdout stays free for command output. */
export function createLogger(level: string, base: Record<string, unknown> = {}): Logger {
  return pino({ level, base: { ...base } }, pino.destination(2));
}
