#!/usr/bin/env node
// What closed the cold start's connections (docs/BENCHMARKS.md, issue 17), reproduced in one
// process: `npx tsx bench/transport/stream-resets.ts [calls] [connections]`.
//
// A grpc-js server holds every call (as the tier holds a long-poll); `calls` calls are made
// over `connections` client connections (grpc-js clients with their own subchannel pool),
// and every one is cancelled by the client (RST_STREAM CANCEL), all at once, as the
// simulator's daemons abort their first long-polls when they start. Then one more call per
// connection shows what became of it. The server's nghttp2 (1.57+) closes a connection
// whose peer resets more than 1000 streams in a burst (then 33/s) with a GOAWAY carrying
// INTERNAL_ERROR, and grpc-js fails each call still on it as INTERNAL "Received RST_STREAM
// with code 2 triggered by internal client error: Session closed with error code 2".
// Prints one JSON line: the outcomes of the calls in flight when the cancels land.
import * as grpc from '@grpc/grpc-js';
import { HOLD, holdClients, holdServer, same } from './hold-server.js';

const calls = Number(process.argv[2] ?? 1500);
const connections = Number(process.argv[3] ?? 1);

async function main(): Promise<void> {
  const held: grpc.sendUnaryData<Buffer>[] = [];
  const { server, port } = await holdServer((callback) => held.push(callback));
  const clients = holdClients(port, connections);
  await Promise.all(clients.map((c) => new Promise<void>((resolve, reject) => c.waitForReady(Date.now() + 10_000, (err) => (err ? reject(err) : resolve())))));

  const call = (c: grpc.Client, onDone: (err: grpc.ServiceError | null) => void): grpc.ClientUnaryCall =>
    c.makeUnaryRequest(HOLD.path, same, same, Buffer.alloc(0), new grpc.Metadata(), { deadline: Date.now() + 30_000 }, (err) => onDone(err));
  // One call per connection stays in flight through the storm: its fate is the connection's.
  const outcomes: Record<string, number> = {};
  const witnesses = clients.map(
    (c) =>
      new Promise<void>((resolve) =>
        call(c, (err) => {
          const key = err ? `${grpc.status[err.code]}: ${err.details}` : 'OK';
          outcomes[key] = (outcomes[key] ?? 0) + 1;
          resolve();
        }),
      ),
  );
  const started = Date.now();
  const cancelled = Array.from({ length: calls }, (_, i) => call(clients[i % connections] as grpc.Client, () => {}));
  // Let every call reach the server, then cancel them all.
  while (held.length < calls + connections && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 10));
  for (const c of cancelled) c.cancel();
  await new Promise((r) => setTimeout(r, 1000));
  for (const callback of held) callback(null, Buffer.alloc(0));
  await Promise.all(witnesses);
  process.stdout.write(`${JSON.stringify({ calls, connections, resetsPerConnection: Math.ceil(calls / connections), witnesses: outcomes })}\n`);
  for (const c of clients) c.close();
  server.forceShutdown();
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
