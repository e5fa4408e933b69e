// grpc-js's own log lines, through the tier's JSON log. By default grpc-js writes plain
// text to stderr ('E Failed to add metadata entry …'), which breaks the one-format log
// and can echo what a client sent. routeGrpcLogs() makes every grpc-js line a JSON line of
// the tier's logger (component grpc-js) at the matching level, with metadata values cut
// out (redactGrpcLine). The logger and its verbosity are grpc-js globals: one per process.
// The redaction reads grpc-js's wording (metadata.js, server-interceptors.js,
// subchannel-call.js), which no API promises: hence its place in this folder.
import { format } from 'node:util';
import * as grpc from '@grpc/grpc-js';
import type { Logger } from 'pino';

/** A client-chosen header name, as far as it may appear in a log line. */
function safeKey(key: string): string {
  return key.replace(/[^\x21-\x7e]/g, '?').slice(0, 64);
}

/** The line with every metadata value grpc-js may print taken out. */
export function redactGrpcLine(line: string): string {
  const entry = /^Failed to add metadata entry ([^:]*):/.exec(line);
  if (entry) return `Failed to add metadata entry ${safeKey(entry[1] ?? '')}: not a legal gRPC metadata entry (value not logged)`;
  return (
    line
      // Tracer lines (GRPC_TRACE): the headers of a call, as JSON or one per line.
      .replace(/(received headers )[\s\S]*$/i, '$1(not logged)')
      .replace(/(Received server headers:)[\s\S]*$/, '$1 (not logged)')
      // Metadata.validate()'s messages quote the key or value.
      .replace(/Metadata (string value|key) "[\s\S]*?" contains illegal characters/g, 'Metadata $1 (not logged) contains illegal characters')
  );
}

/** grpc-js's verbosity for a pino level: as much as the tier's log would keep. */
function verbosityFor(level: string): grpc.logVerbosity {
  if (level === 'silent') return grpc.logVerbosity.NONE;
  if (level === 'trace' || level === 'debug') return grpc.logVerbosity.DEBUG;
  if (level === 'info') return grpc.logVerbosity.INFO;
  return grpc.logVerbosity.ERROR;
}

export function routeGrpcLogs(log: Logger): void {
  const out = log.child({ component: 'grpc-js' });
  const line = (args: unknown[]): string => redactGrpcLine(format(...args));
  grpc.setLogger({
    error: (...args: unknown[]) => out.error(line(args)),
    info: (...args: unknown[]) => out.info(line(args)),
    debug: (...args: unknown[]) => out.debug(line(args)),
  });
  grpc.setLogVerbosity(verbosityFor(log.level));
}
