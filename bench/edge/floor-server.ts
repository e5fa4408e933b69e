// bench:edge's floor: a bare grpc-js server with the tier's service definition and the
// tier's connection options (server/grpc/service.ts connectionOptions: the stream maximum,
// connection age, keepalive, channelz off), answering GetNode from memory. No interceptor,
// no admission, no deserializer of the tier's, no metrics, no MariaDB: what grpc-js and
// Node's HTTP/2 alone cost a rapid reset on this machine, measured in the same run as the
// tier. A child process of the bench (forked by path):
//   floor-server.ts <settings as JSON>   → sends { port } once listening; the settings are
//   the bench's --env (SFDB_GRPC_MAX_CONCURRENT_STREAMS and the like), read as the tier reads them.
// It stops when the bench goes (its IPC channel closes) or on SIGTERM. Compiled as the tier
// is (harness/built.ts), or under tsx with it (--from source): the contract by its package
// name, as the build's server modules import it.
import * as grpc from '@grpc/grpc-js';
import { loadDatabaseProto } from '@sfdb/proto/load';
import type { GetNodeRequest__Output } from '@sfdb/proto/gen/sfdb/v1/GetNodeRequest';
import type { GetNodeResponse } from '@sfdb/proto/gen/sfdb/v1/GetNodeResponse';
import { parseConfig } from '../../server/config.js';
import { connectionOptions } from '../../server/grpc/service.js';

/** What the floor answers every GetNode: a node of the size the tier's answers have. */
function answer(uuid: string): GetNodeResponse {
  const at = '2026-12-04 00:00:00.000000';
  return { found: true, node: { uuid, fqdn: `edge-${uuid.slice(0, 8)}.bench.example`, ipAddress: '', version: 1, createdAt: at, updatedAt: at } };
}

async function main(): Promise<void> {
  const settings = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>;
  if (!process.send) throw new Error('usage: forked by bench/edge/main.ts with <settings as JSON>');
  const config = parseConfig(settings, []);
  const { proto } = loadDatabaseProto();
  const server = new grpc.Server(connectionOptions(config));
  const getNode: grpc.handleUnaryCall<GetNodeRequest__Output, GetNodeResponse> = (call, callback) => callback(null, answer(call.request.uuid));
  server.addService(proto.sfdb.v1.Database.service, { GetNode: getNode });
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound)));
  });
  const stop = (): void => {
    server.forceShutdown();
    process.exit(0);
  };
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  process.send({ port });
}

main().catch((err: unknown) => {
  process.stderr.write(`floor-server: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
