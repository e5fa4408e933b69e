// grpc-js's own statuses, bounded as the tier's are (boundedDetails, proto/errors.ts), and
// one of them answered as what it is. A request that does not decode, on a service whose
// decoders the tier does not wrap (health, reflection: the Database service's are
// admission's, ../admission.ts), grpc-js answers INTERNAL "Error deserializing request":
// the caller's bad input, answered INVALID_ARGUMENT naming `request` here. Two
// of them repeat what the caller sent: UNIMPLEMENTED for a method the server lacks (the
// whole :path) and UNIMPLEMENTED for a grpc-encoding it lacks (the header's value), each as
// long as the header-list limit lets it be (16 KiB), more than a client with default
// limits reads. grpc-js has no hook for either, so boundGrpcJsStatuses() wraps, once per
// process, BaseServerInterceptingCall.sendStatus (every status of a call with a handler:
// grpc-js's own, and the tier's, already bounded) and the private Server._respondWithError
// (a call no handler serves). It throws if grpc-js no longer has them, so an upgrade that
// moves them fails the tests, not production.
import { Server, status } from '@grpc/grpc-js';
import type { StatusObject } from '@grpc/grpc-js';
import { BaseServerInterceptingCall } from '@grpc/grpc-js/build/src/server-interceptors.js';
import { boundedDetails, errorStatus } from '@sfdb/proto/errors';

type SendStatus = (this: unknown, status: Partial<StatusObject>) => void;
type RespondWithError = (this: unknown, err: Partial<StatusObject>, ...rest: unknown[]) => void;

let installed = false;

/** grpc-js's words for a request its handler's deserializer threw on (server-interceptors.js). */
const UNDECODABLE = 'Error deserializing request';

/** A status with its details bounded (an OK status has none worth cutting); an undecodable request is INVALID_ARGUMENT. */
function bounded<T extends Partial<StatusObject>>(s: T): T {
  if (s.code === status.INTERNAL && typeof s.details === 'string' && s.details.startsWith(UNDECODABLE)) {
    const refusal = errorStatus('INVALID_ARGUMENT', 'request: does not decode as the method\'s request message', { field: 'request' });
    return { ...s, ...refusal };
  }
  return s.code === status.OK || typeof s.details !== 'string' ? s : { ...s, details: boundedDetails(s.details) };
}

export function boundGrpcJsStatuses(): void {
  if (installed) return;
  const call = BaseServerInterceptingCall.prototype as unknown as { sendStatus?: SendStatus };
  const server = Server.prototype as unknown as { _respondWithError?: RespondWithError };
  const sendStatus = call.sendStatus;
  const respondWithError = server._respondWithError;
  if (typeof sendStatus !== 'function' || typeof respondWithError !== 'function') {
    throw new Error('@grpc/grpc-js no longer has BaseServerInterceptingCall.sendStatus or Server._respondWithError: server/grpc/grpc-js/status-details.ts needs updating');
  }
  call.sendStatus = function (this: unknown, s: Partial<StatusObject>): void {
    sendStatus.call(this, bounded(s));
  };
  server._respondWithError = function (this: unknown, err: Partial<StatusObject>, ...rest: unknown[]): void {
    respondWithError.call(this, bounded(err), ...rest);
  };
  installed = true;
}
