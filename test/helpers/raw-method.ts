// A gRPC method whose messages are the bytes themselves (no protobuf), for tests that run a
// bare grpc-js server and client around the tier's grpc-js boundary.
import type * as grpc from '@grpc/grpc-js';

const raw = (b: Buffer): Buffer => b;

/** A unary method at `path` that passes its request and answer bytes through as they are. */
export function rawMethod(path: string): grpc.MethodDefinition<Buffer, Buffer> {
  return { path, requestStream: false, responseStream: false, requestSerialize: raw, requestDeserialize: raw, responseSerialize: raw, responseDeserialize: raw };
}
