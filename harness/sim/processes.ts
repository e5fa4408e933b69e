// The simulated processes of a run (harness/sim/): each one a real client (createClient
// over a SimChannel, on the run's clock) and the real code it drives — the reference
// daemons through their public surface, two lease keepers, a cache reader — plus what
// each duty needs to watch them by.
import type { DestinationStream } from 'pino';
import { createClient, LeaseKeeper, StaticObjectCache } from '@sfdb/client';
import type { DatabaseClient, CreateClientOptions, FeedCalls } from '@sfdb/client';
import { AgentDaemon, ClusterDaemon, QueuesDaemon, daemonSettings } from '@sfdb/daemon';
import type { Daemon, DaemonHooks, JobContext } from '@sfdb/daemon';
import { createLogger } from '@sfdb/proto/runtime/log';
import { SimChannel } from './channel.js';
import type { SimNet } from './channel.js';
import type { StopTarget } from './plan.js';

/** Nothing is logged: a run's story is its trace. */
const silent = createLogger('silent', {}, { write: () => undefined } as unknown as DestinationStream);

/** Settings scaled to a short run: claims of 6 s renewed every 2 s, expired ones swept every 3 s, the feed's safety dequeue every 15 s. */
export const SIM_DAEMON_SETTINGS = daemonSettings({}, {
  claimLeaseMs: 6000,
  recoverySweepMs: 3000,
  maintenanceLeaseMs: 6000,
  queueWorkers: 2,
  dequeueBatch: 4,
  nodeHeartbeatMs: 30_000,
  feedSafetyPollMs: 15_000,
});
/** Attempts before a failing item is resolved FAILED. */
export const SIM_MAX_ATTEMPTS = 2;
/** The standalone keepers' lease. */
export const SIM_LEASE = 'sim/lease';
export const SIM_LEASE_TTL_MS = 6000;
/** The cache reader's upgradeable TTL, and the client deadline of every process. */
export const SIM_CACHE_TTL_MS = 5000;
export const SIM_DEADLINE_MS = 5000;

export const NODE_A = '00000000-0000-4000-a000-00000000000a';
export const NODE_B = '00000000-0000-4000-a000-00000000000b';

/** A client of the simulated tier. */
export function simClient(net: SimNet, name: string, options: CreateClientOptions): DatabaseClient {
  return createClient(
    { targets: net.replicas.addresses, balance: 'p2c', deadlineMs: SIM_DEADLINE_MS, tls: false, cache: false, ...options },
    { channel: (avoidance) => new SimChannel(net, name, avoidance), clock: net.sched },
  );
}

/** What the duties watch of the daemon an operator stops. */
export interface StopWatch {
  heardAt: number | undefined;
  startedAt: number | undefined;
}

/** A job's work done past its handler (its side effect), by item and epoch. */
export interface JobEffects {
  commit(id: string, epoch: string): void;
}

export interface Processes {
  daemons: Map<string, Daemon>;
  keepers: LeaseKeeper[];
  clusters: ClusterDaemon[];
  stop: StopWatch;
  /** Starts every process; answers when all start() calls are under way. */
  start(): void;
}

function hooksFor(net: SimNet, name: string, stop: StopWatch | undefined): DaemonHooks {
  return {
    stopRequested: (reason) => {
      net.trace.add(net.sched.now(), `${name}: stop requested (${reason})`);
      if (stop && reason === 'operator') stop.heardAt ??= net.sched.now();
    },
    operatorHold: (held) => {
      net.trace.add(net.sched.now(), `${name}: held by an operator: ${held}`);
      if (stop && held) stop.heardAt ??= net.sched.now();
    },
  };
}

/** Works `ms`, and stops at once when its claim is lost or the daemon stops. */
function handler(net: SimNet, effects: JobEffects) {
  return async (payload: unknown, ctx: JobContext): Promise<unknown> => {
    const p = payload as { ms: number; fails: boolean };
    await net.sched.sleep(p.ms, ctx.signal);
    if (ctx.signal.aborted) throw new Error('job aborted');
    if (p.fails) throw new Error('job failed');
    effects.commit(ctx.id, ctx.epoch);
    return { done: true };
  };
}

export function buildProcesses(net: SimNet, target: StopTarget, feed: boolean, effects: JobEffects): Processes {
  const settings = feed ? SIM_DAEMON_SETTINGS : { ...SIM_DAEMON_SETTINGS, feed: false };
  const stop: StopWatch = { heardAt: undefined, startedAt: undefined };
  const daemons = new Map<string, Daemon>();
  const common = (name: string, node: string, label: string) => ({
    name,
    nodeUuid: node,
    db: simClient(net, label, { callerDaemon: name, callerNode: node, feed }),
    settings,
    clock: net.sched,
    log: silent,
    hooks: hooksFor(net, label, label === `${target}@A` ? stop : undefined),
  });
  for (const [node, tag] of [[NODE_A, 'A'], [NODE_B, 'B']] as const) {
    const queues = new QueuesDaemon({ ...common('queues', node, `queues@${tag}`), maxAttempts: SIM_MAX_ATTEMPTS }).handle('work', handler(net, effects));
    daemons.set(`queues@${tag}`, queues);
    daemons.set(`cluster@${tag}`, new ClusterDaemon(common('cluster', node, `cluster@${tag}`)));
  }
  daemons.set('agent@A', new AgentDaemon(common('agent', NODE_A, 'agent@A')));
  const keepers = [1, 2].map((i) => {
    const db = simClient(net, `keeper${i}`, { callerDaemon: 'keeper', callerNode: NODE_A, feed });
    return new LeaseKeeper(db, { name: SIM_LEASE, holder: `keeper${i}`, ttlMs: SIM_LEASE_TTL_MS, clock: net.sched, ...(feed ? { changes: db.changes } : {}) });
  });
  return {
    daemons,
    keepers,
    clusters: [daemons.get('cluster@A'), daemons.get('cluster@B')] as ClusterDaemon[],
    stop,
    start: () => {
      for (const [label, d] of daemons) {
        net.sched.after(net.random() * 500, () => {
          d.start().then(
            () => {
              net.trace.add(net.sched.now(), `${label}: started`);
              if (label === `${target}@A`) stop.startedAt = net.sched.now();
            },
            (err: unknown) => net.trace.add(net.sched.now(), `${label}: start failed: ${(err as Error).message}`),
          );
        });
      }
      for (const k of keepers) net.sched.after(net.random() * 500, () => k.start());
    },
  };
}

/**
 * A process that reads one blob through its static-object cache every 1..2 s; `served` is
 * told each answer's version and when its read was issued. With the feed, `polled` is told
 * each long-poll with a cursor (not a handshake) once its answer arrived: when it was sent.
 * (The waiter's calls are wrapped where it keeps them, a harness-only reach: the cache
 * attaches to db.changes as in any process.)
 */
export function startCacheReader(net: SimNet, uuid: string, feed: boolean, served: (version: number, issuedAt: number) => void, polled: (sentAt: number) => void = () => undefined): void {
  const cache = new StaticObjectCache({ clock: net.sched, upgradeableTtlMs: SIM_CACHE_TTL_MS, immutableTtlMs: SIM_CACHE_TTL_MS, capacity: 16 });
  const db = simClient(net, 'reader', { callerDaemon: 'reader', callerNode: NODE_B, feed, cache });
  if (feed) {
    const calls = (db.changes as unknown as { calls: FeedCalls }).calls;
    const poll = calls.waitForChanges.bind(calls);
    calls.waitForChanges = async (input, opts) => {
      const sentAt = net.sched.now();
      const answer = await poll(input, opts);
      if (input.cursor !== '') polled(sentAt);
      return answer;
    };
  }
  const loop = async (): Promise<void> => {
    for (;;) {
      await net.sched.sleep(1000 + net.random() * 1000);
      const issuedAt = net.sched.now();
      try {
        const blob = await db.getBlob(uuid);
        if (blob) served(Number(blob.version), issuedAt);
      } catch {
        // an outage: nothing served
      }
    }
  };
  void loop();
}
