// The `resources` daemon, which is also this node's heartbeat (no eighth daemon per node):
//   node-heartbeat      NodeHeartbeat with this machine's stats, every 10 s;
//   resources-node      node metrics as an attribute of the NODE (SetObjectAttributes), every 10 s;
//   resources-instance  each local instance's stats: the instance read (GetInstance, through
//                       the cache when there is one) and its `stats` attribute written, every 60 s.
// Each reports a `period` event once its writes are done.
import { nodeStats } from '../../../../daemons/index.js';
import type { NodeStats, PeriodicTask } from '../../../../daemons/index.js';
import type { PeriodDuty } from '../../protocol.js';
import { localInstances } from '../hooks.js';
import { Schedule } from '../schedule.js';
import { SimDaemon } from './base.js';

/** How long one sample of this machine's stats serves every simulated node. */
const STATS_SAMPLE_MS = 1000;
let sample: { stats: NodeStats; at: number } | undefined;

/**
 * This machine's stats, sampled at most once a second. Every simulated node runs on this
 * one machine: each taking its own sample (a /proc listing) would cost the simulator's one
 * thread what 1,000 machines pay apart, 200 listings a second at 1,000 nodes.
 */
function machineStats(now = Date.now()): NodeStats {
  if (!sample || now - sample.at >= STATS_SAMPLE_MS) sample = { stats: nodeStats(), at: now };
  return sample.stats;
}

export class SimResourcesDaemon extends SimDaemon {
  private readonly schedule = new Schedule(
    [
      { name: 'node-heartbeat', everyMs: this.sim.policy.periods['node-heartbeat'], run: () => this.heartbeat() },
      { name: 'resources-node', everyMs: this.sim.policy.periods['resources-node'], run: () => this.nodeMetrics() },
      { name: 'resources-instance', everyMs: this.sim.policy.periods['resources-instance'], run: () => this.instanceStats() },
    ],
    this.clock,
  );

  protected simTasks(): Omit<PeriodicTask, 'daemon'>[] {
    const p = this.sim.policy.periods;
    return [
      { task: 'node-heartbeat', operation: 'NodeHeartbeat', intervalMs: p['node-heartbeat'], scale: 'process', duty: 'node heartbeat' },
      { task: 'node-metrics', operation: 'SetObjectAttributes', intervalMs: p['resources-node'], scale: 'process', duty: 'write node metrics' },
      {
        task: 'instance-stats-read',
        operation: 'GetInstance',
        intervalMs: p['resources-instance'],
        scale: 'process',
        duty: "write each local instance's stats (one cached read per local instance)",
      },
      {
        task: 'instance-stats',
        operation: 'SetObjectAttributes',
        intervalMs: p['resources-instance'],
        scale: 'process',
        duty: "write each local instance's stats (one write per local instance)",
      },
    ];
  }

  protected step(): Promise<number> {
    return this.schedule.runDue(
      (err) => this.countError(err),
      () => this.stopping,
    );
  }

  private report(duty: PeriodDuty): void {
    this.sim.emit({ event: 'period', duty, node: this.nodeUuid, at: Date.now() });
  }

  private async heartbeat(): Promise<void> {
    await this.db.nodeHeartbeat(this.nodeUuid, machineStats());
    this.report('node-heartbeat');
  }

  private async nodeMetrics(): Promise<void> {
    const s = machineStats();
    const metrics = { cpuLoad1: s.load1, memoryUsedBytes: s.memoryTotalBytes - s.memoryFreeBytes, diskUsedBytes: 0, at: Date.now() };
    await this.db.setObjectAttributes('NODE', this.nodeUuid, { metrics });
    this.report('resources-node');
  }

  private async instanceStats(): Promise<void> {
    await Promise.all(
      localInstances(this.sim).map(async (i) => {
        const instance = await this.db.getInstance(i.uuid);
        const cpus = typeof instance?.staticValues['cpus'] === 'number' ? instance.staticValues['cpus'] : 1;
        const stats = { cpuSeconds: Math.round(process.uptime() * cpus), diskReadBytes: 0, diskWriteBytes: 0, at: Date.now() };
        await this.db.setObjectAttributes('INSTANCE', i.uuid, { stats });
      }),
    );
    this.report('resources-instance');
  }
}
