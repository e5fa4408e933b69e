#!/usr/bin/env node
// What one long-poll cycle costs grpc-js alone (docs/BENCHMARKS.md, issue 17), the floor
// under `npm run bench:feed -- --clients N`: `npx tsx bench/transport/long-poll-floor.ts [n]`.
//
// A bare grpc-js server holds one call from each of `n` grpc-js clients (a connection each,
// as each process of a node has), with a 60-byte request and the caller metadata of ours;
// then answers them all at once, and each client calls again in the next turn, as the
// change waiter does. Client and server share this one process and thread, so the CPU per
// cycle is both sides': what one answer and one new poll cost the woken process and the
// replica together, without the client library, the tier or MariaDB. Three rounds, each
// one JSON line.
import * as grpc from '@grpc/grpc-js';
import { CALLER_DAEMON_HEADER, CALLER_NODE_HEADER } from '../../proto/metadata.js';
import { HOLD, holdClients, holdServer, same } from './hold-server.js';

const n = Number(process.argv[2] ?? 2000);

async function main(): Promise<void> {
  let held: grpc.sendUnaryData<Buffer>[] = [];
  const { port } = await holdServer((callback) => held.push(callback));
  const clients = holdClients(port, n, { 'grpc.enable_channelz': 0 });
  const md = new grpc.Metadata();
  md.set(CALLER_DAEMON_HEADER, 'queues');
  md.set(CALLER_NODE_HEADER, '00000000-0000-4000-8000-000000000000');
  const call = (c: grpc.Client): void => {
    c.makeUnaryRequest(HOLD.path, same, same, Buffer.alloc(60), md.clone(), { deadline: Date.now() + 30_000 }, (err) => {
      if (!err) setImmediate(() => call(c));
    });
  };
  for (const c of clients) call(c);
  while (held.length < n) await new Promise((r) => setTimeout(r, 50));
  for (let r = 0; r < 3; r++) {
    await new Promise((res) => setTimeout(res, 2000));
    const batch = held;
    held = [];
    const cpu0 = process.cpuUsage();
    const t0 = Date.now();
    for (const cb of batch) cb(null, Buffer.alloc(120));
    while (held.length < n) await new Promise((res) => setImmediate(res));
    const cpu = process.cpuUsage(cpu0);
    console.log(JSON.stringify({ n, ms: Date.now() - t0, usPerCycleClientAndServer: Math.round((cpu.user + cpu.system) / n) }));
  }
  process.exit(0);
}
void main();
