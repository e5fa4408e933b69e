// Cross-cutting concerns of every call, registered once in `new Server({ interceptors })`:
// caller identity and metrics. Handlers hold domain logic only.
import { performance } from 'node:perf_hooks';
import * as grpc from '@grpc/grpc-js';
import type { Metrics } from '../metrics.js';
import { callerHeaderFault } from './caller-headers.js';
import { CALLER_DAEMON_HEADER } from './unary.js';

const CODE_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(grpc.status).filter(([, v]) => typeof v === 'number').map(([k, v]) => [v as number, k]),
);

/** '/sfdb.v1.Database/GetNode' -> 'GetNode'. */
export function operationOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

// The per-call listeners and responders below are object methods, not arrow functions
// in properties: under tsx/esbuild (keepNames) every such arrow is renamed with
// Object.defineProperty each time it is created, on every call.

/**
 * The one interceptor of every call (one layer, not one per concern: each layer is a
 * ServerInterceptingCall and its listener objects on every call).
 *
 * Metrics: counts every call once — database_requests_total{operation, caller_daemon}
 * when its metadata arrives, then duration and (for a non-OK status) errors when it ends.
 *
 * Caller identity: a caller-node claim must be a uuid and a caller-daemon a name, each
 * sent once as printable ASCII text (INVALID_ARGUMENT naming the header otherwise, and the
 * handler never runs; see caller-headers.ts). With mTLS the claim is then checked against
 * the client certificate (unary.ts).
 */
export function callInterceptor(metrics: Metrics, callerDaemons: ReadonlySet<string>): grpc.ServerInterceptor {
  return (method, call) => {
    const operation = operationOf(method.path);
    let started = 0;
    // Exactly one decrement per call: its status, or its cancellation (a client that
    // cancels or whose deadline passes gets no status from us; a long-poll re-issued on a
    // topic change is such a call).
    let ended = false;
    const end = (): boolean => {
      if (ended) return false;
      ended = true;
      metrics.inFlight.dec();
      return true;
    };
    const intercepting: grpc.ServerInterceptingCall = new grpc.ServerInterceptingCall(call, {
      start(next) {
        started = performance.now();
        metrics.inFlight.inc();
        next({
          onReceiveMetadata(metadata, nextMetadata) {
            const daemon = metadata.get(CALLER_DAEMON_HEADER)[0];
            metrics.countRequest(operation, typeof daemon === 'string' && callerDaemons.has(daemon) ? daemon : 'unknown');
            const fault = callerHeaderFault(metadata);
            if (fault !== undefined) {
              // Through this call's own sendStatus below, so the refusal is measured too.
              intercepting.sendStatus({ code: grpc.status.INVALID_ARGUMENT, details: fault });
              return;
            }
            nextMetadata(metadata);
          },
          onCancel() {
            if (end()) metrics.observeRequest(operation, (performance.now() - started) / 1000, 'CANCELLED');
          },
        });
      },
      sendStatus(status, next) {
        if (end()) {
          const code = status.code === grpc.status.OK ? undefined : (CODE_NAMES[status.code] ?? String(status.code));
          metrics.observeRequest(operation, (performance.now() - started) / 1000, code);
        }
        next(status);
      },
    });
    return intercepting;
  };
}
