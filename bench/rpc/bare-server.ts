// The floor: a bare grpc-js server answering GetNode with the tier's SELECT through a
// mysql2 pool of the tier's options. No interceptors, no validation, no metrics, no
// error mapping. Run by main.ts as its own process (fork, IPC), compiled as the tier is
// (harness/built.ts) or under tsx with it (--from source):
//   bare-server.ts <mysql url> <pool size>   → sends { port } once listening.
// The contract's modules by their package name (@sfdb/proto), as the tier imports them:
// the build's server code resolves them so, from dist/ as from the sources.
// Its pool and server are parts of one lifecycle (proto/runtime/lifecycle.ts), stopped on
// SIGTERM, SIGINT or the orchestrator gone; then it exits.
import * as grpc from '@grpc/grpc-js';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import type { GetNodeRequest__Output } from '@sfdb/proto/gen/sfdb/v1/GetNodeRequest';
import type { GetNodeResponse } from '@sfdb/proto/gen/sfdb/v1/GetNodeResponse';
import { Lifecycle, StartAbortedError, component, stopOnSignals } from '@sfdb/proto/runtime/lifecycle';
import { loadDatabaseProto } from '@sfdb/proto/load';
import { createPool } from '../../server/db/pool.js';
import type { NodeRow } from '../../server/rpc/nodes/queries.js';
import { toNode } from '../../server/rpc/nodes/handlers.js';
import { selectNodeSql } from './point-read.js';
import type { BareReady } from './protocol.js';

async function main(): Promise<void> {
  const [url, poolSize] = process.argv.slice(2);
  if (!url || !poolSize || !process.send) throw new Error('usage: forked by bench/rpc/main.ts with <url> <pool size>');
  const sql = await selectNodeSql();
  const { proto } = loadDatabaseProto();
  let pool: Pool | undefined;
  const server = new grpc.Server();
  const getNode: grpc.handleUnaryCall<GetNodeRequest__Output, GetNodeResponse> = (call, callback) => {
    (pool as Pool).execute<RowDataPacket[]>(sql, [call.request.uuid]).then(
      ([rows]) => {
        const row = rows[0] as NodeRow | undefined;
        callback(null, row ? { found: true, node: toNode(row) } : { found: false });
      },
      (err: unknown) => callback({ code: grpc.status.INTERNAL, details: String(err) }),
    );
  };
  server.addService(proto.sfdb.v1.Database.service, { GetNode: getNode });
  let port = 0;
  const lifecycle = new Lifecycle().add(
    component('pool', () => (pool = createPool({ url, connectionLimit: Number(poolSize) })), () => pool?.end()),
    component(
      'grpc',
      async () => {
        port = await new Promise<number>((resolve, reject) => {
          server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound)));
        });
      },
      () => server.forceShutdown(),
    ),
  );
  // A Ctrl-C reaches this process too (the orchestrator's process group), then the
  // orchestrator's SIGTERM: the second signal lets the first stop finish.
  const signals = stopOnSignals(lifecycle, { repeated: 'wait' });
  void signals.exitCode.then((code) => process.exit(code));
  // The orchestrator gone (even killed) closes the IPC channel: never outlive it.
  process.on('disconnect', () => {
    lifecycle.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  try {
    await lifecycle.start();
  } catch (err) {
    if (err instanceof StartAbortedError) return; // a signal: its stop exits
    throw err;
  }
  process.send({ port } satisfies BareReady);
}

main().catch((err: unknown) => {
  process.stderr.write(`bare-server: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
