// The `queues` and `net` daemons: the framework's QueuesDaemon draining its node's queue
// (protocol.ts WORK_QUEUES), with a handler that reports the item as noticed when it
// starts, reads the object its payload names (GetInstance / GetNetwork, through the cache
// when there is one) and that object's references (GetReferencesFrom the instance /
// GetReferencesTo the network; never cached), and succeeds. Besides dequeuing, it lists
// every cluster lock to spot stray ones held for its node (ListLeases): at most every 30 s
// (anchor) or on each pass (naive). The `net` daemon also reads, once per pass and at most
// every second (policy.ipamReadMs), the IPAM of each network with an interface on its
// node (GetIPAM; through the cache in anchor, so mostly no call).
import type { DatabaseClient } from '../../../../client/index.js';
import { QueuesDaemon } from '../../../../daemons/index.js';
import type { DaemonOptions, PeriodicTask } from '../../../../daemons/index.js';
import { WORK_QUEUES } from '../../protocol.js';
import { hookTasks, localInstances } from '../hooks.js';
import type { SimContext } from '../hooks.js';

export class SimQueuesDaemon extends QueuesDaemon {
  private nextLockListingAt = 0;
  private nextIpamReadAt = 0;
  /** Net: the IPAM of each network with an interface on this node (from the config); empty for queues. */
  private readonly ipamUuids: readonly string[];
  /** Expired locks named after this node, at the last listing. */
  strayLocks = 0;

  constructor(
    options: DaemonOptions<DatabaseClient>,
    private readonly sim: SimContext,
  ) {
    super(options);
    if (sim.type !== 'queues' && sim.type !== 'net') throw new Error(`SimQueuesDaemon is the queues or net daemon, not ${sim.type}`);
    this.ipamUuids = sim.type === 'net' ? localIpams(sim) : [];
    const { nodeUuid: node, type: daemon } = sim;
    this.handle(WORK_QUEUES[sim.type], async (payload, job) => {
      sim.emit({ event: 'noticed', duty: 'work-item', node, daemon, id: job.id, at: Date.now() });
      await this.resolveSubject(payload);
      return { done: true };
    });
  }

  /** The instance or network a payload names and its references, read as its handler would (the object cached in anchor). */
  private async resolveSubject(payload: unknown): Promise<void> {
    if (typeof payload !== 'object' || payload === null) return;
    const { instanceUuid, networkUuid } = payload as { instanceUuid?: unknown; networkUuid?: unknown };
    const db = this.sim.db;
    // An instance operation needs what the instance refers to (its interfaces: references
    // from it).
    if (typeof instanceUuid === 'string') await Promise.all([db.getInstance(instanceUuid), db.getReferencesFrom('INSTANCE', instanceUuid)]);
    // A network operation needs what is attached to the network (the interfaces on it:
    // references to it); what the network refers to, its IPAM, is already in its static
    // values (ipamUuid), so the references from it would tell the handler nothing new.
    if (typeof networkUuid === 'string') await Promise.all([db.getNetwork(networkUuid), db.getReferencesTo('NETWORK', networkUuid)]);
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
      ...this.ipamTasks(),
      ...hookTasks(this.sim),
    ];
  }

  /** Net: the IPAM reads, once per pass at most every policy.ipamReadMs; an idle pass can be slower (anchor's backoff ends at 2 s). */
  private ipamTasks(): Omit<PeriodicTask, 'daemon'>[] {
    if (this.sim.type !== 'net') return [];
    const every = this.sim.policy.ipamReadMs;
    const steps = this.settings.dequeueBackoffMs;
    const slowest = Math.max(every, steps[steps.length - 1] as number);
    return [
      {
        task: 'ipam-read',
        operation: 'GetIPAM',
        intervalMs: slowest,
        ...(slowest > every ? { minIntervalMs: every } : {}),
        scale: 'process',
        duty: `the address plan of this node's networks (${this.sim.policy.cache ? 'one cached read' : 'one read'} per network with an interface on this node, once per pass)`,
      },
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
    if (!this.stopping && this.ipamUuids.length > 0 && now >= this.nextIpamReadAt) {
      this.nextIpamReadAt = now + this.sim.policy.ipamReadMs;
      try {
        await Promise.all(this.ipamUuids.map((uuid) => this.sim.db.getIPAM(uuid)));
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
}

/** The IPAM of each network with an interface on this node: the networks of its standing instances. */
function localIpams(sim: SimContext): string[] {
  const networks = new Set(localInstances(sim).map((i) => i.networkUuid));
  return [...new Set(sim.config.networks.filter((n) => networks.has(n.uuid)).map((n) => n.ipamUuid))];
}
