// What every simulated daemon shares, whatever framework class it extends: its context
// (cluster, policy, where it reports) and the framework hooks (DaemonOptions.hooks) the
// cluster hands every simulated daemon — the moment it notices an operator stop, and the
// naive idle (a node read on every tick around the framework's own idle).
import type { Clock, DatabaseClient } from '../../../client/index.js';
import type { DaemonHooks, IdleContext, PeriodicTask, StopReason } from '../../../daemons/index.js';
import type { DaemonType, Emit, SimConfig } from '../protocol.js';
import type { LocalInstance, NodeLocal } from './churn.js';
import type { PollPolicy } from './modes.js';

/** One simulated daemon process: who it is, what it knows, how it polls, where it reports. */
export interface SimContext {
  type: DaemonType;
  nodeUuid: string;
  config: SimConfig;
  policy: PollPolicy;
  /** The process's client (the daemon's `db` is the same client, typed narrower by its class). */
  db: DatabaseClient;
  emit: Emit;
  /** Kept across restarts of this node's daemon of this type (what it last saw, like a local state file). */
  memory: Map<string, string>;
  /** What this node knows of itself: the churned instances defined on it now. */
  local: NodeLocal;
}

/** The instances on this daemon's node: the standing ones placed on it, then the churned ones defined on it now. */
export function localInstances(ctx: SimContext): LocalInstance[] {
  return [...ctx.config.instances.filter((i) => i.nodeUuid === ctx.nodeUuid), ...ctx.local.churned.values()];
}

/** The simulator's hooks into the framework's loop (DaemonOptions.hooks), one per simulated daemon. */
export class SimHooks implements DaemonHooks {
  private nextNodeReadAt = 0;

  constructor(
    private readonly ctx: SimContext,
    private readonly clock: Clock,
  ) {}

  /** From requestStop: an operator stop is reported when it is noticed, not when the daemon has stopped. */
  stopRequested(reason: StopReason, alreadyStopping: boolean): void {
    if (alreadyStopping || reason !== 'operator') return;
    const { nodeUuid: node, type: daemon } = this.ctx;
    this.ctx.emit({ event: 'noticed', duty: 'operator-stop', node, daemon, id: `${node}/${daemon}`, at: Date.now() });
  }

  /**
   * The daemon's idle. Anchor: the framework's. Naive: the framework's idle cut into
   * ticks, each preceded by a read of the node row (at most one per tick), so the node is
   * read at the tick rate for as long as the daemon idles.
   */
  async idle(ms: number, frameworkIdle: (ms: number) => Promise<void>, daemon: IdleContext): Promise<void> {
    if (!this.ctx.policy.nodeReadEveryTick) return frameworkIdle(ms);
    const tick = this.ctx.policy.settings.idleTickMs;
    const end = this.clock.now() + ms;
    for (;;) {
      const now = this.clock.now();
      if (now >= this.nextNodeReadAt) {
        // Fixed rate (a ticker), starting over from now after falling a whole tick behind.
        this.nextNodeReadAt = this.nextNodeReadAt + tick > now ? this.nextNodeReadAt + tick : now + tick;
        try {
          await this.ctx.db.getNode(this.ctx.nodeUuid);
        } catch (err) {
          daemon.countError(err);
        }
      }
      const sliceEnd = Math.min(end, this.nextNodeReadAt);
      await frameworkIdle(Math.max(0, sliceEnd - this.clock.now()));
      if (daemon.stopping) return;
      const after = this.clock.now();
      // The framework's idle returns early only when woken (or stopping): end ours too.
      if (after >= end || after < sliceEnd) return;
    }
  }

}

/** Periodic calls the hooks add (each simulated daemon declares them with its own). */
export function hookTasks(ctx: SimContext): Omit<PeriodicTask, 'daemon'>[] {
  if (!ctx.policy.nodeReadEveryTick) return [];
  const tick = ctx.policy.settings.idleTickMs;
  return [{ task: 'idle-node-read', operation: 'GetNode', intervalMs: tick, scale: 'process', duty: 'none (naive: the node row read on every idle tick)' }];
}
