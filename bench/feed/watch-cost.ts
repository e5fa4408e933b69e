// bench:feed --watch-cost N: what the replica watch costs a replica (client/replica-watch.ts).
// N channels, each holding one WatchReplicas as a client process does: first idle (each
// held for 300 s, the client's timeout: the baseline), then each re-issued every second
// (held 1 s), so N calls a second; the replica's CPU over each window. The difference per
// call is what one re-issue costs; a client re-issues every 300 s, so 7,000 processes on
// two replicas cost each 3,500 / 300 of it a second.
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { WATCH_TIMEOUT_MS } from '../../client/replica-watch.js';
import { processCpuSeconds } from '../../harness/children.js';

export interface WatchCost {
  channels: number;
  windowS: number;
  heldCpuPerS: number;
  reissuedCpuPerS: number;
  callsPerS: number;
  replicaUsPerCall: number;
  /** At 1,000 nodes: 7,000 processes over two replicas, a re-issue each every WATCH_TIMEOUT_MS. */
  at7000On2: { callsPerSPerReplica: number; replicaCoreShare: number };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function watchCost(a: { n: number; windowS: number; target: string; replicaPid: number | undefined; clients: DatabaseClient[]; log: (m: string) => void }): Promise<WatchCost> {
  let calls = 0;
  let holdMs = WATCH_TIMEOUT_MS;
  // One signal per phase, shared by every channel's loop.
  const newPhase = (): AbortController => {
    const c = new AbortController();
    setMaxListeners(a.n + 10, c.signal);
    return c;
  };
  let phase = newPhase();
  let done = false;
  for (let i = 0; i < a.n; i++) {
    const db = createClient({ targets: [a.target], callerDaemon: 'bench', callerNode: randomUUID(), cache: false, feed: false });
    a.clients.push(db);
    void (async () => {
      while (!done) {
        const { signal } = phase;
        await db.watchReplicas('', holdMs, { signal, deadlineMs: holdMs + 10_000 }).then(
          () => void (calls += 1),
          () => sleep(50),
        );
      }
    })();
  }
  const window = async (): Promise<{ cpuPerS: number; callsPerS: number }> => {
    await sleep(3_000);
    const cpu0 = processCpuSeconds(a.replicaPid);
    const calls0 = calls;
    const t0 = Date.now();
    await sleep(a.windowS * 1000);
    const s = (Date.now() - t0) / 1000;
    return { cpuPerS: (processCpuSeconds(a.replicaPid) - cpu0) / s, callsPerS: (calls - calls0) / s };
  };
  const held = await window();
  a.log(`held ${WATCH_TIMEOUT_MS / 1000} s: ${JSON.stringify(held)}`);
  // Every held call is cancelled; from now on each is held 1 s.
  holdMs = 1_000;
  phase.abort();
  phase = newPhase();
  const reissued = await window();
  a.log(`re-issued every second: ${JSON.stringify(reissued)}`);
  done = true;
  phase.abort();
  const usPerCall = ((reissued.cpuPerS - held.cpuPerS) * 1e6) / Math.max(1, reissued.callsPerS - held.callsPerS);
  const perReplica = 3_500 / (WATCH_TIMEOUT_MS / 1000);
  return {
    channels: a.n,
    windowS: a.windowS,
    heldCpuPerS: Number(held.cpuPerS.toFixed(4)),
    reissuedCpuPerS: Number(reissued.cpuPerS.toFixed(4)),
    callsPerS: Number(reissued.callsPerS.toFixed(1)),
    replicaUsPerCall: Math.round(usPerCall),
    at7000On2: { callsPerSPerReplica: Number(perReplica.toFixed(1)), replicaCoreShare: Number(((perReplica * usPerCall) / 1e6).toFixed(5)) },
  };
}
