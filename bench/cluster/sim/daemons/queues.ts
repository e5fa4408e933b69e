// The `queues` and `net` daemons: the framework's QueuesDaemon draining its node's queue
// (protocol.ts WORK_QUEUES), with a handler that reports the item as noticed when it
// starts, resolves the object its payload names (through the cache when there is one),
// and succeeds. Besides dequeuing, it lists every cluster lock to spot stray ones held
// for its node (ListLeases): at most every 30 s (anchor) or on each pass (naive).
import type { DatabaseClient } from '../../../../client/index.js';
import { QueuesDaemon } from '../../../../daemons/index.js';
import type { DaemonOptions, PeriodicTask, StopReason } from '../../../../daemons/index.js';
import { WORK_QUEUES } from '../../protocol.js';
import { SimHooks } from '../hooks.js';
import type { SimContext } from '../hooks.js';

export class SimQueuesDaemon extends QueuesDaemon {
  private readonly hooks: SimHooks;
  private nextLockListingAt = 0;
  /** Expired locks named after this node, at the last listing. */
  strayLocks = 0;

  constructor(
    options: DaemonOptions<DatabaseClient>,
    private readonly sim: SimContext,
  ) {
    super(options);
    if (sim.type !== 'queues' && sim.type !== 'net') throw new Error(`SimQueuesDaemon is the queues or net daemon, not ${sim.type}`);
    this.hooks = new SimHooks(sim, this.clock);
    const { nodeUuid: node, type: daemon } = sim;
    this.handle(WORK_QUEUES[sim.type], async (payload, job) => {
      sim.emit({ event: 'noticed', duty: 'work-item', node, daemon, id: job.id, at: Date.now() });
      await this.resolveSubject(payload);
      return { done: true };
    });
  }

  /** The instance or network a payload names, read as its handler would (cached in anchor). */
  private async resolveSubject(payload: unknown): Promise<void> {
    if (typeof payload !== 'object' || payload === null) return;
    const { instanceUuid, networkUuid } = payload as { instanceUuid?: unknown; networkUuid?: unknown };
    if (typeof instanceUuid === 'string') await this.sim.db.getInstance(instanceUuid);
    if (typeof networkUuid === 'string') await this.sim.db.getNetwork(networkUuid);
  }

  protected override periodicTasks(): Omit<PeriodicTask, 'daemon'>[] {
    const every = this.sim.policy.strayLockListingMs;
    const pass = this.settings.dequeueBackoffMs[0] as number;
    return [
      ...super.periodicTasks(),
      {
        task: 'stray-lock-listing',
        operation: 'ListLeases',
        intervalMs: every === 0 ? pass : every,
        scale: 'process',
        duty: 'spot expired locks held for this node (every page of all cluster locks)',
      },
      ...this.hooks.tasks(),
    ];
  }

  protected override async step(): Promise<number> {
    const wait = await super.step();
    const now = this.clock.now();
    if (!this.stopping && now >= this.nextLockListingAt) {
      this.nextLockListingAt = now + this.sim.policy.strayLockListingMs;
      try {
        this.strayLocks = await this.countStrayLocks();
      } catch (err) {
        this.countError(err);
      }
    }
    return wait;
  }

  /** Walks every lock of the cluster; counts the expired ones whose holder names this node. */
  private async countStrayLocks(): Promise<number> {
    let stray = 0;
    let pageToken = '';
    do {
      const page = await this.sim.db.listLeases({ pageSize: 1000, pageToken });
      stray += page.items.filter((l) => l.holder.includes(this.nodeUuid) && l.remainingMs === '0').length;
      pageToken = page.nextPageToken;
    } while (pageToken !== '' && !this.stopping);
    return stray;
  }

  protected override idle(ms: number): Promise<void> {
    return this.hooks.idle(ms, (m) => super.idle(m), () => this.stopping, (err) => this.countError(err));
  }

  override requestStop(reason: StopReason): void {
    this.hooks.stopRequested(reason, this.stopping);
    super.requestStop(reason);
  }
}
