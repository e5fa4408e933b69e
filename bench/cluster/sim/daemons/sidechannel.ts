// The `sidechannel` daemon: reads the state of each instance on its node (GetObjectState)
// at most every 2 s (anchor) or every second (naive), and reports a state that differs
// from the one it last saw (`${instance}:${state}`); the first read of an instance is a
// baseline, taken before the daemon counts as started. What it last saw is kept across
// restarts of the daemon (the slot's memory), as a local state file would be.
import type { PeriodicTask } from '../../../../daemons/index.js';
import { localInstances } from '../hooks.js';
import { SimDaemon } from './base.js';

export class SimSidechannelDaemon extends SimDaemon {
  protected simTasks(): Omit<PeriodicTask, 'daemon'>[] {
    return [
      {
        task: 'instance-state-read',
        operation: 'GetObjectState',
        intervalMs: this.sim.policy.instanceStatePollMs,
        scale: 'process',
        duty: 'notice a state change of any instance on this node (one read per local instance)',
      },
    ];
  }

  protected override async onStart(): Promise<void> {
    await this.readStates();
  }

  protected async step(): Promise<number> {
    const started = this.clock.now();
    await this.readStates();
    return Math.max(0, this.sim.policy.instanceStatePollMs - (this.clock.now() - started));
  }

  private async readStates(): Promise<void> {
    const seen = this.sim.memory;
    const states = await Promise.all(localInstances(this.sim).map(async (i) => [i.uuid, await this.db.getObjectState('INSTANCE', i.uuid)] as const));
    const at = Date.now();
    for (const [uuid, record] of states) {
      const state = record?.state ?? 'NONE';
      const last = seen.get(uuid);
      if (last !== undefined && last !== state) {
        this.sim.emit({ event: 'noticed', duty: 'instance-state', node: this.nodeUuid, daemon: this.sim.type, id: `${uuid}:${state}`, at });
      }
      seen.set(uuid, state);
    }
  }
}
