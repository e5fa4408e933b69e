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

const n = Number(process.argv[2] ?? 2000);
const same = (b: Buffer): Buffer => b;
const HOLD = { path: '/bench.Hold/Hold', requestStream: false, responseStream: false, requestSerialize: same, requestDeserialize: same, responseSerialize: same, responseDeserialize: same } as const;

async function main(): Promise<void> {
  let held: grpc.sendUnaryData<Buffer>[] = [];
  const server = new grpc.Server();
  server.addService({ Hold: HOLD }, { Hold: (_c: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => void held.push(cb) });
  const port = await new Promise<number>((res, rej) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))));
  const clients = Array.from({ length: n }, () => new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { 'grpc.enable_retries': 0, 'grpc.use_local_subchannel_pool': 1, 'grpc.enable_channelz': 0 }));
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
