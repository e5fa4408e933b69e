// A run's plan (harness/sim/), drawn from its seed before anything runs: the replicas,
// their fault episodes, how often calls fail, the workload, and the operator's stop.
import type { ReplicaStatus } from './replicas.js';

/** Faults happen before this; after it everything answers, so that what was lost shows. */
export const HEAL_AT_MS = 35_000;
/** The run's end: time for expired claims to be swept and retried after the heal. */
export const RUN_END_MS = 75_000;

export interface Episode {
  replica: number;
  status: Exclude<ReplicaStatus, 'up'>;
  /** 'killed' that comes back at once as a fresh process: a restart. */
  restart: boolean;
  at: number;
  ms: number;
}

export interface Job {
  id: string;
  node: 'A' | 'B';
  at: number;
  /** How long the handler works. */
  ms: number;
  /** Its handler always fails (released, then FAILED after maxAttempts). */
  fails: boolean;
}

export type StopTarget = 'queues' | 'agent' | 'cluster';

export interface Plan {
  seed: number;
  replicas: number;
  /** Daemons and cache reader on the change feed (else polling). */
  feed: boolean;
  /** The cache reader hears the feed (else its TTL alone bounds it). */
  cacheFeed: boolean;
  callFaultRate: number;
  episodes: Episode[];
  jobs: Job[];
  blobUpdates: number[];
  stop: { target: StopTarget; at: number };
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

/** Ids as the real tier wants them (uuids), deterministic per seed. */
function uuid(random: () => number): string {
  const hex = (n: number): string => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
}

export function drawPlan(seed: number, random: () => number): Plan {
  const replicas = random() < 0.6 ? 2 : 3;
  const episodes: Episode[] = [];
  // One replica in trouble at a time (the duties are promised for any one).
  for (let t = 1000 + random() * 8000; t < HEAL_AT_MS - 1000; ) {
    const x = random();
    const status: Episode['status'] = x < 0.35 ? 'frozen' : x < 0.6 ? 'blackholed' : 'killed';
    const restart = status === 'killed' && random() < 0.5;
    const longest = status === 'killed' ? (restart ? 4000 : 15_000) : 20_000;
    const ms = Math.min(500 + random() * longest, HEAL_AT_MS - t);
    episodes.push({ replica: Math.floor(random() * replicas), status, restart, at: t, ms });
    t += ms + 500 + random() * 10_000;
  }
  const jobs: Job[] = [];
  for (const node of ['A', 'B'] as const) {
    const n = 4 + Math.floor(random() * 9);
    for (let i = 0; i < n; i++) {
      const long = random() < 0.2;
      jobs.push({ id: uuid(random), node, at: random() * 33_000, ms: long ? 8000 + random() * 12_000 : 50 + random() * 3000, fails: random() < 0.1 });
    }
  }
  const blobUpdates = Array.from({ length: 3 + Math.floor(random() * 6) }, () => 1000 + random() * 32_000).sort((a, b) => a - b);
  // Half the stops near a fault's start, where a consumed change meets a silent replica.
  const near = episodes.length > 0 && random() < 0.5 ? pick(random, episodes) : undefined;
  const stopAt = near ? Math.max(5000, near.at - 1000 + random() * 4000) : 5000 + random() * 25_000;
  const x = random();
  const rate = x < 0.25 ? 0 : x < 0.6 ? 0.01 : 0.04;
  return {
    seed,
    replicas,
    feed: random() < 0.85,
    cacheFeed: random() < 0.7,
    callFaultRate: rate,
    episodes,
    jobs,
    blobUpdates,
    stop: { target: random() < 0.5 ? 'queues' : pick(random, ['agent', 'cluster'] as const), at: stopAt },
  };
}

export { uuid as planUuid };
