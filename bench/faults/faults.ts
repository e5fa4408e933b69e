// The faults, in the order a run injects them. Each one injects, heals (restart,
// SIGCONT, a replacement replica) and says how long the fault was held and what bound its
// recovery must meet — "recovery" being the time from the fault to the first
// acknowledged write sent after it (ledger.ts).
//
// Bounds, from the mechanisms (deadline D = the clients' call deadline):
// - MariaDB SIGKILL: nothing can be written until mariadbd answers again (held H = kill →
//   it answers, crash recovery included). After that a write can meet a pooled
//   connection of the dead server (fails fast, the tier reconnects) or have been sent
//   just before the answer and be waiting out its own deadline: bound H + 2·D.
// - MariaDB SIGSTOP for S > D: calls sent during the stop time out (their statements
//   stay queued in MariaDB and run on SIGCONT); a write sent just before SIGCONT waits
//   behind that backlog at most its deadline: bound S + 2·D.
// - a replica SIGKILLed or SIGTERMed: the other replica carries every call; a write sent
//   after the fault that picked the dead one fails at once (connection refused or
//   reset, or refused while draining) and is retried on the other: bound D.
// - connection age-outs: no fault instant; the longest stretch without an acknowledged
//   write must stay under D.
// The faults of the network between the replicas and MariaDB follow these: db-faults.ts.
import { freeze } from '../../harness/freeze.js';
import type { FaultProcesses } from './processes.js';

export interface FaultContext {
  procs: FaultProcesses;
  deadlineMs: number;
  /** How long MariaDB stays SIGSTOPped (more than the deadline). */
  stopMs: number;
  /** How long a held fault without a length of its own (the database latency) is held. */
  faultMs: number;
  /** How long the database blackhole is held (more than the deadline and the pool's connect timeout). */
  blackholeMs: number;
  /** Settings of the replicas started to replace the stopped ones (the short connection age). */
  replacementEnv: Record<string, string>;
  log: (message: string) => void;
}

export interface Injected {
  /** When the fault began (wall ms). */
  at: number;
  /** How long it was held: until MariaDB answered again, the stop ended, the replica exited. */
  heldMs: number;
  /** A replacement replica starting (recovery is measured while it starts). */
  restarting?: Promise<string>;
}

export interface Fault {
  name: string;
  description: string;
  /** A fault of the network to MariaDB: the run's replicas dial it through the proxy, and /readyz is watched. */
  viaProxy?: boolean;
  /** Recovery bound in ms for a fault held `heldMs`; undefined: no fault instant (the longest gap is bounded instead). */
  bound(heldMs: number, deadlineMs: number): number | undefined;
  inject(ctx: FaultContext): Promise<Injected>;
}

/** Stops replica `name` with `sig`, and starts its replacement on the same ports with the short connection age. */
async function replaceReplica(ctx: FaultContext, name: string, sig: 'SIGKILL' | 'SIGTERM'): Promise<Injected> {
  const at = Date.now();
  const status = await ctx.procs.signalReplica(name, sig, 30_000);
  const heldMs = Date.now() - at;
  ctx.log(`replica ${name}: ${sig} → exited (${status.signal ?? `code ${status.code}`}) after ${heldMs} ms; starting its replacement`);
  if (sig === 'SIGTERM' && status.code !== 0) throw new Error(`replica ${name} exited with ${status.signal ?? `code ${status.code}`} after SIGTERM, not 0`);
  const restarting = ctx.procs.replaceReplica(name, ctx.replacementEnv).then((r) => r.name);
  return { at, heldMs, restarting };
}

export const FAULTS: readonly Fault[] = [
  {
    name: 'steady',
    description: 'no fault: the baseline',
    bound: () => undefined,
    inject: async () => ({ at: Date.now(), heldMs: 0 }),
  },
  {
    name: 'mariadb-sigkill',
    description: 'mariadbd SIGKILLed, then restarted on the same data directory',
    bound: (heldMs, deadlineMs) => heldMs + 2 * deadlineMs,
    async inject(ctx) {
      const at = Date.now();
      await ctx.procs.mariadb.kill();
      await ctx.procs.mariadb.restart();
      return { at, heldMs: Date.now() - at };
    },
  },
  {
    name: 'mariadb-sigstop',
    description: 'mariadbd SIGSTOPped for longer than the client deadline, then SIGCONT',
    bound: (heldMs, deadlineMs) => heldMs + 2 * deadlineMs,
    async inject(ctx) {
      const pid = ctx.procs.mariadb.pid;
      if (pid === undefined) throw new Error('mariadbd is not running');
      const at = Date.now();
      try {
        await freeze(pid); // until every thread is seen stopped
        // The fault's length, chosen: not a wait for something to happen.
        await new Promise((r) => setTimeout(r, ctx.stopMs));
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      return { at, heldMs: Date.now() - at };
    },
  },
  {
    name: 'replica-sigterm',
    description: 'replica b SIGTERMed (drains, exit 0), replaced on the same ports',
    bound: (_heldMs, deadlineMs) => deadlineMs,
    inject: (ctx) => replaceReplica(ctx, 'b', 'SIGTERM'),
  },
  {
    name: 'replica-sigkill',
    description: 'replica a SIGKILLed, replaced on the same ports',
    bound: (_heldMs, deadlineMs) => deadlineMs,
    inject: (ctx) => replaceReplica(ctx, 'a', 'SIGKILL'),
  },
  {
    name: 'goaway',
    description: 'both replicas recycle connections (short max connection age) under steady load',
    bound: () => undefined,
    inject: async () => ({ at: Date.now(), heldMs: 0 }),
  },
];
