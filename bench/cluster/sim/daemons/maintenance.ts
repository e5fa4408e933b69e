// The `cluster` daemon: the framework's ClusterDaemon (one elected by lease in the whole
// cluster; recovery sweep, registry sweep and event pruning on their intervals) plus the
// IPAM reconcile: each sweep in which the recovery and registry sweeps ran, the elected
// one reconciles IPAM reservations against the interfaces, then reports `maintenance`.
//   per network (anchor): the IPAM (cached), its addresses in use (GetAddressesInUse, once
//     per network), the interfaces on the network (GetReferencesTo), each interface (cached);
//   per instance (naive): the instance's references, its interface, its IPAM and that
//     IPAM's addresses in use, all re-read for every instance;
//   changed (feed): what changed since the last sweep (GetChangesSince on the reservation
//     and network-reference topics), then per network as above for those networks only.
// Reservations are compared, not changed: a seeded cluster has nothing to fix.
import type { DatabaseClient, StaticObject } from '../../../../client/index.js';
import { ClusterDaemon } from '../../../../daemons/index.js';
import type { DaemonOptions, PeriodicTask } from '../../../../daemons/index.js';
import { topics } from '../../../../proto/topics.js';
import { hookTasks } from '../hooks.js';
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
  last: ReconcileResult | undefined;
  /** Feed: where the last sweep's changes ended, and what each network reconciled to. */
  private reconcileCursor: string | undefined;
  private readonly byNetwork = new Map<string, ReconcileResult>();

  constructor(
    options: DaemonOptions<DatabaseClient>,
    private readonly sim: SimContext,
  ) {
    super(options);
  }

  protected override periodicTasks(): Omit<PeriodicTask, 'daemon'>[] {
    const every = this.settings.recoverySweepMs;
    const duty = 'reconcile IPAM reservations against the interfaces';
    const how = this.sim.policy.reconcile;
    const reads =
      how === 'changed'
        ? [{ operation: 'GetChangesSince', what: 'one per sweep; the per-network reads for the changed networks only' }]
        : how === 'per-network'
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
      ...hookTasks(this.sim),
    ];
  }

  protected override async step(): Promise<number> {
    const before = this.snapshot().runs;
    const wait = await super.step();
    const after = this.snapshot().runs;
    const swept = (job: string): boolean => (after[job] ?? 0) > (before[job] ?? 0);
    if (!this.stopping && swept('recovery-sweep') && swept('registry-sweep') && this.isElected()) {
      try {
        const how = this.sim.policy.reconcile;
        this.last = how === 'per-network' ? await this.reconcilePerNetwork() : how === 'changed' ? await this.reconcileChanged() : await this.reconcilePerInstance();
        this.sim.emit({ event: 'period', duty: 'maintenance', node: this.nodeUuid, at: Date.now() });
      } catch (err) {
        this.countError(err);
      }
    }
    return wait;
  }

  private async reconcilePerNetwork(): Promise<ReconcileResult> {
    const result: ReconcileResult = { missing: 0, stray: 0 };
    for (const network of this.sim.config.networks) {
      const r = await this.reconcileNetwork(network);
      result.missing += r.missing;
      result.stray += r.stray;
    }
    return result;
  }

  /** One network: its IPAM (cached), its addresses in use, the interfaces on it (cached). */
  private async reconcileNetwork(network: { uuid: string; ipamUuid: string }): Promise<ReconcileResult> {
    const db = this.sim.db;
    await db.getIPAM(network.ipamUuid);
    const [inUse, refs] = await Promise.all([db.getAddressesInUse(network.ipamUuid), db.getReferencesTo('NETWORK', network.uuid)]);
    const reserved = new Set(inUse);
    const ifaces = await Promise.all(refs.filter((r) => r.fromType === 'NETWORK_INTERFACE').map((r) => db.getNetworkInterface(r.fromUuid)));
    const result: ReconcileResult = { missing: 0, stray: 0 };
    for (const iface of ifaces) {
      const a = address(iface);
      if (a === undefined || !reserved.delete(a)) result.missing += 1;
    }
    result.stray += reserved.size;
    return result;
  }

  /**
   * Feed: reconciles only the networks whose reservations or interface references changed
   * since the last sweep (GetChangesSince, one call per sweep); all of them on the first
   * sweep of this process and on resync. The result stands for every network.
   */
  private async reconcileChanged(): Promise<ReconcileResult> {
    const db = this.sim.db;
    const networks = this.sim.config.networks;
    const watched = [topics.ipamReservations(), topics.references('NETWORK')];
    let due = networks;
    if (this.reconcileCursor === undefined) {
      // The cursor before the reads: nothing written after it is missed.
      this.reconcileCursor = (await db.getChangesSince({ cursor: '', topics: watched })).cursor;
    } else {
      const ipams = new Set<string>();
      const nets = new Set<string>();
      let resync = false;
      for (let more = true; more; ) {
        const page = await db.getChangesSince({ cursor: this.reconcileCursor, topics: watched, limit: 1000 });
        resync ||= page.resync;
        for (const c of page.changes) (c.objectType === 'ipam_reservation' ? ipams : nets).add(c.id);
        this.reconcileCursor = page.cursor;
        more = page.more;
      }
      if (!resync) due = networks.filter((n) => nets.has(n.uuid) || ipams.has(n.ipamUuid));
    }
    for (const network of due) this.byNetwork.set(network.uuid, await this.reconcileNetwork(network));
    const result: ReconcileResult = { missing: 0, stray: 0 };
    for (const r of this.byNetwork.values()) {
      result.missing += r.missing;
      result.stray += r.stray;
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
}
