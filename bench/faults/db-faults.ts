// The faults of the network between the replicas and MariaDB, made by the TCP proxy every
// replica of such a run dials instead of MariaDB (FaultProcesses.startProxy). Each one is
// held under the load, then healed; its recovery is timed from when it ended as well as
// from when it began, against one target: writes acknowledged again within
// DB_RECOVERY_TARGET_MS of the end, by the same replicas (no restart).
//
// Bounds (recovery from the fault's start, deadline D):
// - latency (DB_LATENCY_MS each way, held `faultMs`): writes slow down but go on; a write
//   sent after it began is acknowledged within D (or fails at D, and the next one is):
//   bound 2·D;
// - blackhole (held `blackholeMs`, longer than D and the pool's connect timeout): nothing
//   reaches MariaDB; what was sent is delivered when it ends: bound held + target;
// - reset (every connection pair ended with a RST, once): the pools reconnect: the target.
import type { Fault, FaultContext } from './faults.js';
import type { TcpProxy } from '../../harness/tcp-proxy.js';

export const DB_LATENCY_MS = 200;
/** Writes are acknowledged again within this of a database network fault's end (ms). */
export const DB_RECOVERY_TARGET_MS = 5000;

function proxyOf(ctx: FaultContext): TcpProxy {
  if (!ctx.procs.proxy) throw new Error('a database network fault needs the replicas behind the proxy (FaultProcesses.startProxy)');
  return ctx.procs.proxy;
}

/** The fault's length, chosen: not a wait for something to happen. */
const hold = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export const DB_FAULTS: readonly Fault[] = [
  {
    name: 'db-latency',
    description: `${DB_LATENCY_MS} ms added each way between the replicas and MariaDB`,
    viaProxy: true,
    bound: (_heldMs, deadlineMs) => 2 * deadlineMs,
    async inject(ctx) {
      const proxy = proxyOf(ctx);
      const at = Date.now();
      proxy.setLatency(DB_LATENCY_MS);
      try {
        await hold(ctx.faultMs);
      } finally {
        proxy.setLatency(0);
      }
      return { at, heldMs: Date.now() - at };
    },
  },
  {
    name: 'db-blackhole',
    description: 'nothing crosses between the replicas and MariaDB (sockets stay open), for longer than the deadline and the pool timeouts',
    viaProxy: true,
    bound: (heldMs) => heldMs + DB_RECOVERY_TARGET_MS,
    async inject(ctx) {
      const proxy = proxyOf(ctx);
      const at = Date.now();
      proxy.blackhole(true);
      try {
        await hold(ctx.blackholeMs);
      } finally {
        proxy.blackhole(false);
      }
      return { at, heldMs: Date.now() - at };
    },
  },
  {
    name: 'db-reset',
    description: 'every connection between the replicas and MariaDB reset (RST both ways), once',
    viaProxy: true,
    bound: () => DB_RECOVERY_TARGET_MS,
    async inject(ctx) {
      const proxy = proxyOf(ctx);
      const at = Date.now();
      const open = proxy.open;
      proxy.resetAll();
      ctx.log(`db-reset: ${open} connections reset`);
      return { at, heldMs: 0 };
    },
  },
];
