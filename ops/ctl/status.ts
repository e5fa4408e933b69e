// `sf-ctl status`: replicas, nodes and their daemons' states, leases, stuck claims — as
// the tier reports them, with ages by database time.
import type { Claim, ClusterStatus, DatabaseClient, Lease, NodeDaemonState } from '@sfdb/client';
import { GLOBAL_HELP, flag, str } from './cli.js';
import type { Command, Io, Parsed } from './cli.js';
import { mapLimit, withTier } from './connect.js';
import { formatAge, msBetween, msFromInt64, section, table } from './format.js';

const HELP = `usage: sf-ctl status [--json]

Replicas (id, address, metrics address, live, heartbeat age, started), nodes (fqdn, uuid,
live or stale, heartbeat age) with their daemons' states (ListNodeDaemonStates per node;
"STOPPED (held)": held stopped by an operator until sf-ctl start-daemon),
leases (name, holder, token, expires in) and stuck claims (claims whose lease ran out:
queue, item, owner, how long). Ages are by database time; --json gives them in ms.

exit: 0 shown, 2 bad arguments, 3 the replica is unreachable

${GLOBAL_HELP}`;

/** ListStuckClaims answers at most this many. */
const STUCK_LIMIT = 100;
/** ListNodeDaemonStates calls in flight at once. */
const NODE_CONCURRENCY = 8;

export interface StatusReport {
  databaseTime: string;
  replicas: { id: string; address: string; metricsAddress: string; live: boolean; heartbeatAgeMs: number; startedAt: string }[];
  nodes: {
    fqdn: string;
    uuid: string;
    live: boolean;
    /** null: never beat. */
    heartbeatAgeMs: number | null;
    /** operatorHold: held stopped by an operator until sf-ctl start-daemon. */
    daemons: { daemon: string; state: string; operatorHold: boolean; message: string; updatedAt: string; ageMs: number | null }[];
  }[];
  leases: { name: string; holder: string; token: string; expiresAt: string; expiresInMs: number }[];
  stuckClaims: { queue: string; item: string; node: string; owner: string; epoch: string; leaseExpiredAt: string; ageMs: number | null }[];
  /** ListStuckClaims answered its limit: there may be more. */
  stuckClaimsTruncated: boolean;
}

/** The report from what the tier answered. Pure. */
export function buildStatus(
  cluster: ClusterStatus,
  daemons: readonly (readonly NodeDaemonState[])[],
  leases: readonly Lease[],
  stuck: readonly Claim[],
): StatusReport {
  const now = cluster.databaseTime;
  const age = (at: string): number | null => {
    const ms = msBetween(at, now);
    return ms === undefined ? null : Math.max(0, ms);
  };
  return {
    databaseTime: now,
    replicas: cluster.replicas.map((r) => ({
      id: r.replicaId,
      address: r.address,
      metricsAddress: r.metricsAddress,
      live: r.live,
      heartbeatAgeMs: msFromInt64(r.heartbeatAgeMs),
      startedAt: r.startedAt,
    })),
    nodes: cluster.nodes.map((n, i) => {
      const beat = msFromInt64(n.heartbeatAgeMs);
      return {
        fqdn: n.fqdn,
        uuid: n.nodeUuid,
        live: n.live,
        heartbeatAgeMs: beat < 0 ? null : beat,
        daemons: (daemons[i] ?? []).map((d) => ({
          daemon: d.daemon,
          state: String(d.state),
          operatorHold: d.operatorHold,
          message: d.message,
          updatedAt: d.updatedAt,
          ageMs: age(d.updatedAt),
        })),
      };
    }),
    leases: leases.map((l) => ({ name: l.name, holder: l.holder, token: l.token, expiresAt: l.expiresAt, expiresInMs: msFromInt64(l.remainingMs) })),
    stuckClaims: stuck.map((c) => ({
      queue: c.item.queue,
      item: c.item.id,
      node: c.item.nodeUuid,
      owner: c.holder,
      epoch: c.epoch,
      leaseExpiredAt: c.leaseExpiresAt,
      ageMs: age(c.leaseExpiresAt),
    })),
    stuckClaimsTruncated: stuck.length >= STUCK_LIMIT,
  };
}

/** The report as tables. Pure. */
export function renderStatus(r: StatusReport): string {
  const replicas = table(
    ['replica', 'address', 'metrics', 'live', 'heartbeat', 'started'],
    r.replicas.map((x) => [x.id, x.address, x.metricsAddress || '-', x.live ? 'live' : 'stale', formatAge(x.heartbeatAgeMs), x.startedAt]),
    [4],
  );
  const nodes = table(
    ['fqdn', 'uuid', 'state', 'heartbeat'],
    r.nodes.map((n) => [n.fqdn, n.uuid, n.live ? 'live' : 'stale', formatAge(n.heartbeatAgeMs)]),
    [3],
  );
  const daemons = table(
    ['node', 'daemon', 'state', 'since', 'message'],
    r.nodes.flatMap((n) => n.daemons.map((d) => [n.fqdn, d.daemon, d.operatorHold ? `${d.state} (held)` : d.state, formatAge(d.ageMs), d.message])),
    [3],
  );
  const leases = table(
    ['lease', 'holder', 'token', 'expires in'],
    r.leases.map((l) => [l.name, l.holder || '(released)', l.token, l.expiresInMs > 0 ? formatAge(l.expiresInMs) : 'expired']),
    [2, 3],
  );
  const stuck = table(
    ['queue', 'item', 'owner', 'stuck for'],
    r.stuckClaims.map((c) => [c.queue, c.item, c.owner || '-', formatAge(c.ageMs)]),
    [3],
  );
  return [
    `database time ${r.databaseTime}\n`,
    section(`replicas (${r.replicas.filter((x) => x.live).length} live of ${r.replicas.length})`, replicas),
    section(`nodes (${r.nodes.filter((n) => n.live).length} live of ${r.nodes.length})`, nodes),
    section('daemons', daemons),
    section(`leases (${r.leases.length})`, leases),
    section(`stuck claims (${r.stuckClaims.length}${r.stuckClaimsTruncated ? ', the oldest only' : ''})`, stuck),
  ].join('\n');
}

async function allLeases(db: DatabaseClient): Promise<Lease[]> {
  const out: Lease[] = [];
  let pageToken = '';
  do {
    const page = await db.listLeases({ pageSize: 1000, pageToken });
    out.push(...page.items);
    pageToken = page.nextPageToken;
  } while (pageToken !== '');
  return out;
}

/** Everything `status` shows, read from the tier. */
export async function readStatus(db: DatabaseClient): Promise<StatusReport> {
  const cluster = await db.getClusterStatus();
  const [daemons, leases, stuck] = await Promise.all([
    mapLimit(cluster.nodes, NODE_CONCURRENCY, (n) => db.listNodeDaemonStates(n.nodeUuid)),
    allLeases(db),
    db.listStuckClaims(STUCK_LIMIT),
  ]);
  return buildStatus(cluster, daemons, leases, stuck);
}

async function run({ values }: Parsed, io: Io): Promise<number> {
  const report = await withTier(str(values, 'target'), ({ db }) => readStatus(db));
  io.out(flag(values, 'json') ? `${JSON.stringify(report, null, 2)}\n` : renderStatus(report));
  return 0;
}

export const statusCommand: Command = {
  name: 'status',
  summary: 'replicas, nodes and their daemons, leases, stuck claims',
  help: HELP,
  options: {},
  run,
};
