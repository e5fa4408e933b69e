// A bare grpc-js server with one method that holds every call until the caller answers it,
// as the tier holds a long-poll, and clients of it with a connection each. Shared by the
// transport probes in this folder, which measure grpc-js without the tier.
import * as grpc from '@grpc/grpc-js';

/** Bytes in, bytes out: no protobuf. */
export const same = (b: Buffer): Buffer => b;

export const HOLD = {
  path: '/bench.Hold/Hold',
  requestStream: false,
  responseStream: false,
  requestSerialize: same,
  requestDeserialize: same,
  responseSerialize: same,
  responseDeserialize: same,
} as const;

/** Starts the server on a free loopback port; `held` receives each call's answer callback. */
export async function holdServer(held: (callback: grpc.sendUnaryData<Buffer>) => void): Promise<{ server: grpc.Server; port: number }> {
  const server = new grpc.Server();
  server.addService({ Hold: HOLD }, { Hold: (_call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => held(callback) });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return { server, port };
}

/** `n` clients of the server, each with a connection of its own (as each process has). */
export function holdClients(port: number, n: number, options: grpc.ChannelOptions = {}): grpc.Client[] {
  return Array.from({ length: n }, () =>
    new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { 'grpc.enable_retries': 0, 'grpc.use_local_subchannel_pool': 1, ...options }),
  );
}
