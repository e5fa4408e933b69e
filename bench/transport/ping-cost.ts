#!/usr/bin/env node
// What an HTTP/2 keepalive ping costs the server (docs/BENCHMARKS.md, issue 28):
// `npx tsx bench/transport/ping-cost.ts [connections]`. A bare grpc-js server in a child
// process holds one call from each of `connections` grpc-js clients (a connection each, as
// each process has); the clients ping at 0 (off), 1000, 500 and 250 ms, 20 s each, and the
// server process's CPU is read from /proc. The difference to "off" over the pings sent is
// what one ping costs a replica: the price of finding a frozen replica from every client.
// One JSON line per interval.
import * as grpc from '@grpc/grpc-js';
import { forkTs, processCpuSeconds } from '../../harness/children.js';
import { HOLD, holdClients, holdServer, same } from './hold-server.js';

const WINDOW_MS = 20_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));


async function main(): Promise<void> {
  if (process.argv[2] === 'server') {
    const { port } = await holdServer(() => {});
    process.send?.({ port });
    return;
  }
  const n = Number(process.argv[2] ?? 3500);
  const child = forkTs(process.argv[1] as string, ['server']);
  try {
    const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
    let baseline = 0;
    for (const intervalMs of [0, 1000, 500, 250]) {
      const keepalive: grpc.ChannelOptions = intervalMs > 0 ? { 'grpc.keepalive_time_ms': intervalMs, 'grpc.keepalive_timeout_ms': 2000 } : {};
      const clients = holdClients(port, n, { 'grpc.enable_channelz': 0, ...keepalive });
      for (const c of clients) c.makeUnaryRequest(HOLD.path, same, same, Buffer.alloc(60), new grpc.Metadata(), { deadline: Date.now() + 120_000 }, () => {});
      await sleep(8_000);
      const cpu0 = processCpuSeconds(child.pid);
      const t0 = Date.now();
      await sleep(WINDOW_MS);
      const seconds = (Date.now() - t0) / 1000;
      const serverCpuPerS = (processCpuSeconds(child.pid) - cpu0) / seconds;
      if (intervalMs === 0) baseline = serverCpuPerS;
      const pingsPerS = intervalMs > 0 ? (n * 1000) / intervalMs : 0;
      const usPerPing = pingsPerS > 0 ? ((serverCpuPerS - baseline) * 1e6) / pingsPerS : 0;
      console.log(JSON.stringify({ connections: n, intervalMs, serverCpuPerS: Number(serverCpuPerS.toFixed(4)), pingsPerS, serverUsPerPing: Number(usPerPing.toFixed(1)) }));
      for (const c of clients) c.close();
      await sleep(3_000);
    }
  } finally {
    child.kill();
  }
  process.exit(0);
}
void main();
