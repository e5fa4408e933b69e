// The `cluster` daemon: the framework's ClusterDaemon (one elected by lease in the whole
// cluster; recovery sweep, registry sweep and event pruning on their intervals) plus the
// IPAM reconcile: each sweep in which the recovery and registry sweeps ran, the elected
// one reconciles IPAM reservations against the interfaces, then reports `maintenance`.
//   per network (anchor): the IPAM (cached), its addresses in use (GetAddressesInUse, once
//     per network), the interfaces on the network (GetReferencesTo), each interface (cached);
//   per instance (naive): the instance's references, its interface, its IPAM and that
//     IPAM's addresses in use, all re-read for every instance.
// Reservations are compared, not changed: a seeded cluster has nothing to fix.
import type { DatabaseClient, StaticObject } from '../../../../client/index.js';
import { ClusterDaemon } from '../../../../daemons/index.js';
import type { DaemonOptions, PeriodicTask, StopReason } from '../../../../daemons/index.js';
import { SimHooks } from '../hooks.js';
import type { SimContext } from '../hooks.js';

export interface ReconcileResult {
  /** Interfaces whose address is not reserved in their IPAM. */
  missing: number;
  /** Reserved addresses no interface of the network has (per-network reconcile only). */
  stray: number;
}

function address(iface: Readonly<StaticObject> | undefined): string | undefined {
  const a = iface?.staticValues['address'];
  return typeof a === 'string' ? a : undefined;
}

export class SimClusterDaemon extends ClusterDaemon {
  private readonly hooks: SimHooks;
  last: ReconcileResult | undefined;

  constructor(
    options: DaemonOptions<DatabaseClient>,
    private readonly sim: SimContext,
  ) {
    super(options);
    this.hooks = new SimHooks(sim, this.clock);
  }

  protected override periodicTasks(): Omit<PeriodicTask, 'daemon'>[] {
    const every = this.settings.recoverySweepMs;
    const duty = 'reconcile IPAM reservations against the interfaces';
    const reads =
      this.sim.policy.reconcile === 'per-network'
        ? [
            { operation: 'GetIPAM', what: 'one cached read per network' },
            { operation: 'GetAddressesInUse', what: 'one per network' },
            { operation: 'GetReferencesTo', what: 'one per network' },
            { operation: 'GetNetworkInterface', what: 'one cached read per interface' },
          ]
        : [
            { operation: 'GetReferencesFrom', what: 'one per instance' },
            { operation: 'GetNetworkInterface', what: 'one per instance' },
            { operation: 'GetIPAM', what: 'one per instance' },
            { operation: 'GetAddressesInUse', what: 'one per instance' },
          ];
    return [
      ...super.periodicTasks(),
      ...reads.map((r) => ({ task: `ipam-reconcile-${r.operation}`, operation: r.operation, intervalMs: every, scale: 'elected' as const, duty: `${duty} (${r.what})` })),
      ...this.hooks.tasks(),
    ];
  }

  protected override async step(): Promise<number> {
    const before = this.snapshot().runs;
    const wait = await super.step();
    const after = this.snapshot().runs;
    const swept = (job: string): boolean => (after[job] ?? 0) > (before[job] ?? 0);
    if (!this.stopping && swept('recovery-sweep') && swept('registry-sweep') && this.isElected()) {
      try {
        this.last = this.sim.policy.reconcile === 'per-network' ? await this.reconcilePerNetwork() : await this.reconcilePerInstance();
        this.sim.emit({ event: 'period', duty: 'maintenance', node: this.nodeUuid, at: Date.now() });
      } catch (err) {
        this.countError(err);
      }
    }
    return wait;
  }

  private async reconcilePerNetwork(): Promise<ReconcileResult> {
    const db = this.sim.db;
    const result: ReconcileResult = { missing: 0, stray: 0 };
    for (const network of this.sim.config.networks) {
      await db.getIPAM(network.ipamUuid);
      const [inUse, refs] = await Promise.all([db.getAddressesInUse(network.ipamUuid), db.getReferencesTo('NETWORK', network.uuid)]);
      const reserved = new Set(inUse);
      const ifaces = await Promise.all(refs.filter((r) => r.fromType === 'NETWORK_INTERFACE').map((r) => db.getNetworkInterface(r.fromUuid)));
      for (const iface of ifaces) {
        const a = address(iface);
        if (a === undefined || !reserved.delete(a)) result.missing += 1;
      }
      result.stray += reserved.size;
    }
    return result;
  }

  private async reconcilePerInstance(): Promise<ReconcileResult> {
    const db = this.sim.db;
    const result: ReconcileResult = { missing: 0, stray: 0 };
    for (const instance of this.sim.config.instances) {
      const refs = await db.getReferencesFrom('INSTANCE', instance.uuid);
      for (const ref of refs.filter((r) => r.toType === 'NETWORK_INTERFACE')) {
        const iface = await db.getNetworkInterface(ref.toUuid);
        const ipamUuid = iface?.staticValues['ipamUuid'];
        if (typeof ipamUuid !== 'string') {
          result.missing += 1;
          continue;
        }
        await db.getIPAM(ipamUuid);
        const inUse = await db.getAddressesInUse(ipamUuid);
        const a = address(iface);
        if (a === undefined || !inUse.includes(a)) result.missing += 1;
      }
    }
    return result;
  }

  protected override idle(ms: number): Promise<void> {
    return this.hooks.idle(ms, (m) => super.idle(m), () => this.stopping, (err) => this.countError(err));
  }

  override requestStop(reason: StopReason): void {
    this.hooks.stopRequested(reason, this.stopping);
    super.requestStop(reason);
  }
}
