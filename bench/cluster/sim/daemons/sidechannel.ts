// The `sidechannel` daemon: reads the state (GetObjectState) and the attributes
// (GetObjectAttributes, all keys; never cached) of each instance on its node at most every
// 2 s (anchor) or every second (naive), and reports a state that differs from the one it
// last saw (`${instance}:${state}`); the first read of an instance is a baseline, taken
// before the daemon counts as started. What it last saw is kept across restarts of the
// daemon (the slot's memory), as a local state file would be. Feed mode: it waits on its
// node's instances topic and re-reads only the instances a change names (all on resync);
// no periodic read. A churned instance (sim/churn.ts) is known from the moment its node
// defines it, in CREATING: that is its baseline, and its moves are reported as churn-state.
import type { PeriodicTask } from '../../../../daemons/index.js';
import { topics } from '../../../../proto/topics.js';
import { localInstances } from '../hooks.js';
import { SimDaemon } from './base.js';

export class SimSidechannelDaemon extends SimDaemon {
  protected simTasks(): Omit<PeriodicTask, 'daemon'>[] {
    // Feed mode reads on change only: nothing periodic (the polls below are its fallback).
    if (this.usesFeed) return [];
    return [
      {
        task: 'instance-state-read',
        operation: 'GetObjectState',
        intervalMs: this.sim.policy.instanceStatePollMs,
        scale: 'process',
        duty: 'notice a state change of any instance on this node (one read per local instance)',
      },
      {
        task: 'instance-attributes-read',
        operation: 'GetObjectAttributes',
        intervalMs: this.sim.policy.instanceStatePollMs,
        scale: 'process',
        duty: "notice a state change of any instance on this node (the instance's attributes, one read per local instance)",
      },
    ];
  }

  protected override async onStart(): Promise<void> {
    await this.readStates();
  }

  private nextPlantedPollAt = 0;

  /** Feed mode: an instance placed on this node created, deleted or changing state ends the idle. */
  protected override feedTopics(): string[] {
    // Planted defect (a positive control): every node's instances, not only this one's.
    if (this.sim.config.plant === 'wake-everyone') return this.sim.config.nodes.map((n) => topics.nodeObjects(n.uuid, 'instance'));
    return [topics.nodeObjects(this.nodeUuid, 'instance')];
  }

  protected async step(): Promise<number> {
    if (this.sim.config.plant === 'per-node-poll') return this.plantedPoll();
    return this.ownStep();
  }

  private async ownStep(): Promise<number> {
    if (this.feedActive) {
      // Only what changed (ids and kinds): re-read those instances; all of them on resync.
      const { changes, resync } = this.takeChanges();
      const changed = new Set(changes.map((c) => c.id));
      // Planted defect: any change anywhere re-reads every local instance.
      const all = resync || (this.sim.config.plant === 'wake-everyone' && changes.length > 0);
      const local = localInstances(this.sim).filter((i) => all || changed.has(i.uuid));
      if (local.length > 0) await this.readStates(local);
      return this.settings.feedSafetyPollMs;
    }
    const started = this.clock.now();
    await this.readStates();
    return Math.max(0, this.sim.policy.instanceStatePollMs - (this.clock.now() - started));
  }

  /** Planted defect (a positive control): the node's attributes every second, then the daemon's own step. */
  private async plantedPoll(): Promise<number> {
    const now = this.clock.now();
    if (now >= this.nextPlantedPollAt) {
      this.nextPlantedPollAt = now + 1000;
      await this.db.getObjectAttributes('NODE', this.nodeUuid);
    }
    const wait = await this.ownStep();
    return Math.max(0, Math.min(wait, this.nextPlantedPollAt - this.clock.now()));
  }

  private known(uuid: string): boolean {
    return this.sim.local.churned.has(uuid) || this.sim.config.instances.some((i) => i.uuid === uuid);
  }

  private async readStates(instances = localInstances(this.sim)): Promise<void> {
    const seen = this.sim.memory;
    // Each instance's state and attributes, read together; only the state is compared.
    const states = await Promise.all(
      instances.map(async (i) => {
        const [record] = await Promise.all([this.db.getObjectState('INSTANCE', i.uuid), this.db.getObjectAttributes('INSTANCE', i.uuid)]);
        return [i.uuid, record] as const;
      }),
    );
    const at = Date.now();
    const churned = new Set(instances.filter((i) => i.churned).map((i) => i.uuid));
    for (const [uuid, record] of states) {
      const state = record?.state ?? 'NONE';
      const last = seen.get(uuid) ?? (churned.has(uuid) ? 'CREATING' : undefined);
      if (last !== undefined && last !== state) {
        const duty = churned.has(uuid) ? 'churn-state' : 'instance-state';
        this.sim.emit({ event: 'noticed', duty, node: this.nodeUuid, daemon: this.sim.type, id: `${uuid}:${state}`, at });
      }
      seen.set(uuid, state);
    }
    // A churned instance gone from the node is forgotten (the memory stays the size of the node).
    for (const uuid of seen.keys()) if (!this.known(uuid)) seen.delete(uuid);
  }
}
