// The simulator spread over several OS processes (`--sim-processes`), for a machine with
// cores to spare: a 1,000-node cluster is 7,000 simulated daemon processes, a lot for one
// event loop (on 2 shared cores one process is still the better choice: more processes
// take the CPU from the replicas being measured). Node i goes
// to shard i mod K with its instances (a churned instance lives with its node's daemons,
// so each shard drives its share of the churn: the rates divided by K); every shard knows
// every network (the elected maintenance daemon, wherever it runs, reconciles them all).
// The group reads as one simulator: its events merged, `ready` once every shard is ready,
// its CPU the sum of the shards'.
import type { ChildProcess } from 'node:child_process';
import type { SimConfig, SimEvent } from './protocol.js';
import { processCpuSeconds } from '../../harness/children.js';
import { Simulator } from './processes.js';

/** `config` split into `k` shards (k ≥ 1; k = 1 answers the config itself). */
export function shardConfig(config: SimConfig, k: number): SimConfig[] {
  if (!Number.isInteger(k) || k < 1) throw new Error(`shardConfig: ${k} is not a positive integer`);
  if (k === 1) return [config];
  return Array.from({ length: k }, (_, s) => {
    const nodes = config.nodes.filter((_n, i) => i % k === s);
    const mine = new Set(nodes.map((n) => n.uuid));
    // Pinning stays as in one process: node i talks to targets[i mod R] (the shard's own
    // order would reassign them).
    const targetOf = new Map(config.nodes.map((n, i) => [n.uuid, config.targets[i % config.targets.length] as string]));
    const shard: SimConfig = {
      ...config,
      nodes,
      instances: config.instances.filter((i) => mine.has(i.nodeUuid)),
      ...(config.pinned ? { pinnedTargets: nodes.map((n) => targetOf.get(n.uuid) as string) } : {}),
    };
    if (config.churn) shard.churn = { ...config.churn, instancesPerS: config.churn.instancesPerS / k, staticPerS: config.churn.staticPerS / k };
    return shard;
  });
}

export class SimulatorGroup {
  private readonly sims: Simulator[];

  constructor(procs: readonly { proc: ChildProcess; logPath: string }[]) {
    if (procs.length === 0) throw new Error('SimulatorGroup: no simulator');
    this.sims = procs.map((p) => new Simulator(p.proc, p.logPath));
  }

  get procs(): ChildProcess[] {
    return this.sims.map((s) => s.proc);
  }

  /** The first shard's log (each shard has its own; a failure names the one that failed). */
  get logPath(): string {
    return this.failed?.logPath ?? (this.sims[0] as Simulator).logPath;
  }

  private get failed(): Simulator | undefined {
    return this.sims.find((s) => s.exitStatus !== undefined);
  }

  /** Every shard's events, merged in time order. */
  get events(): SimEvent[] {
    if (this.sims.length === 1) return (this.sims[0] as Simulator).events;
    return this.sims.flatMap((s) => s.events).sort((a, b) => a.at - b.at);
  }

  /** The first shard that exited, if any did. */
  get exitStatus(): Simulator['exitStatus'] {
    return this.failed?.exitStatus;
  }

  /** Every shard ready: one `ready` event, at the last shard's time, with every daemon counted. */
  async ready(timeoutMs: number): Promise<Extract<SimEvent, { event: 'ready' }>> {
    const each = await Promise.all(
      this.sims.map((s) => s.waitFor((e): e is Extract<SimEvent, { event: 'ready' }> => e.event === 'ready', 'ready', timeoutMs)),
    );
    return { event: 'ready', at: Math.max(...each.map((e) => e.at)), daemons: each.reduce((n, e) => n + e.daemons, 0) };
  }

  /** Waits for the next event of any shard (or an exit), at most `ms`. */
  next(ms: number): Promise<void> {
    return Promise.race(this.sims.map((s) => s.next(ms)));
  }

  /** User + system CPU seconds of every shard so far. */
  cpuSeconds(): number {
    return this.sims.reduce((sum, s) => sum + processCpuSeconds(s.proc.pid), 0);
  }
}
