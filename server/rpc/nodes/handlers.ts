// Nodes: create, read, list, update, delete, heartbeat, cluster status.
import type { Node } from '@sfdb/proto/gen/sfdb/v1/Node';
import { ER_DUP_ENTRY, sqlErrno } from '../../db/retryable.js';
import { ConflictError, FailedPreconditionError, InvalidArgumentError, echo } from '../../errors.js';
import { decodePageToken, page } from '../../paging.js';
import { topics } from '@sfdb/proto/topics';
import { isoTime } from '../../time.js';
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';
import { missing } from '../targets.js';
import * as q from './queries.js';
import { heartbeatAlone } from './writes.js';

const MAX_STATS_BYTES = 16 * 1024;

export function toNode(row: q.NodeRow): Node {
  return {
    uuid: row.uuid,
    fqdn: row.fqdn,
    ipAddress: row.ip_address,
    version: row.version,
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
  };
}

type NodeMethods =
  | 'CreateNode' | 'GetNode' | 'GetNodeByFqdn' | 'ListNodes' | 'UpdateNode' | 'DeleteNode'
  | 'NodeHeartbeat' | 'GetClusterStatus';

export const nodeHandlers: Handlers<NodeMethods> = {
  async CreateNode(req, { sql }) {
    const a = {
      uuid: v.uuid('uuid', req.uuid),
      fqdn: v.fqdn('fqdn', req.fqdn),
      ipAddress: v.ipAddress('ip_address', req.ipAddress, { required: false }),
    };
    let row: q.NodeRow;
    try {
      row = await q.insertNode(sql, a);
    } catch (err) {
      if (sqlErrno(err) !== ER_DUP_ENTRY) throw err;
      const existing = await q.selectNode(sql, a.uuid);
      if (existing && existing.fqdn === a.fqdn && existing.ip_address === a.ipAddress) {
        return { node: toNode(existing), created: false };
      }
      throw new ConflictError(existing ? `node ${a.uuid} exists with other values` : `fqdn ${a.fqdn} belongs to another node`);
    }
    return { node: toNode(row), created: true };
  },

  async GetNode(req, { sql }) {
    const row = await q.selectNode(sql, v.uuid('uuid', req.uuid));
    return row ? { found: true, node: toNode(row) } : { found: false };
  },

  async GetNodeByFqdn(req, { sql }) {
    const row = await q.selectNodeByFqdn(sql, v.fqdn('fqdn', req.fqdn));
    return row ? { found: true, node: toNode(row) } : { found: false };
  },

  async ListNodes(req, { sql }) {
    const limit = v.pageSize('page_size', req.pageSize);
    const after = decodePageToken('page_token', req.pageToken, 1);
    const rows = await q.listNodes(sql, after?.[0], limit + 1);
    const { items, nextPageToken } = page(rows, limit, (r) => [r.uuid]);
    return { nodes: items.map(toNode), nextPageToken };
  },

  async UpdateNode(req, { write }) {
    const uuid = v.uuid('uuid', req.uuid);
    v.count('update_mask', req.updateMask, { min: 1, max: 2 });
    for (const path of req.updateMask) {
      if (path !== 'fqdn' && path !== 'ip_address') throw new InvalidArgumentError('update_mask', `unknown field ${echo(path)}`);
    }
    const fqdn = req.updateMask.includes('fqdn') ? v.fqdn('fqdn', req.fqdn) : undefined;
    const ip = req.updateMask.includes('ip_address') ? v.ipAddress('ip_address', req.ipAddress, { required: false }) : undefined;
    const expectedVersion = v.int64String('expected_version', req.expectedVersion, { min: 0n });
    const { node, published } = await write(async (tx, publish) => {
      const current = await q.selectNode(tx, uuid);
      if (!current) throw missing({ field: 'uuid', type: 'node', uuid });
      let changed: number;
      try {
        changed = await q.updateNode(tx, {
          uuid,
          fqdn: fqdn ?? current.fqdn,
          ipAddress: ip ?? current.ip_address,
          expectedVersion,
        });
      } catch (err) {
        if (sqlErrno(err) === ER_DUP_ENTRY) throw new ConflictError(`fqdn ${fqdn ?? ''} belongs to another node`);
        throw err;
      }
      if (changed === 0) {
        // Deleted since it was read (the update found no row): NOT_FOUND, not a version conflict.
        const now = await q.selectNode(tx, uuid);
        if (!now) throw missing({ field: 'uuid', type: 'node', uuid });
        throw new ConflictError(`node ${uuid} is at version ${now.version}, not ${expectedVersion}`, 'version');
      }
      const row = await q.selectNode(tx, uuid);
      if (!row) throw missing({ field: 'uuid', type: 'node', uuid });
      // Caches of the node drop their copy.
      return { node: toNode(row), published: publish({ topic: topics.staticValues('node'), objectType: 'node', objectId: uuid, kind: 'updated' }) };
    });
    // That change's seq: a cache that re-reads the node after this answer skips that change.
    return { node, changeSeq: published.seqOn(topics.staticValues('node')) ?? '0' };
  },

  /**
   * In one transaction: the node and what hangs off it (nodes/queries.ts deleteNodeRows),
   * or nothing — refused while an object is placed on it (delete or re-create it
   * elsewhere first), deleted=false when there is no such node.
   */
  async DeleteNode(req, { write }) {
    const uuid = v.uuid('uuid', req.uuid);
    return write(async (tx, publish) => {
      // Taken exclusively first (after the counter floor: queries.ts deleteNode): a write
      // naming the node (it reads the row under a shared lock) either committed before, and
      // is removed here, or waits and finds nothing.
      if ((await q.deleteNode(tx, uuid)) === 0) return { deleted: false };
      const placed = await q.selectPlacedObject(tx, uuid);
      if (placed) throw new FailedPreconditionError(`uuid: node ${uuid} has objects placed on it (${placed.object_type} ${placed.uuid}): delete them first`);
      const { daemons } = await q.deleteNodeRows(tx, uuid);
      publish({ topic: topics.staticValues('node'), objectType: 'node', objectId: uuid, kind: 'deleted' });
      // Its daemons hear that their state is gone.
      for (const daemon of daemons) publish({ topic: topics.daemonState(uuid, daemon), objectType: 'daemon_state', objectId: daemon, kind: 'deleted' });
      return { deleted: true };
    });
  },

  async NodeHeartbeat(req, { sql, groups }) {
    const nodeUuid = v.uuid('node_uuid', req.nodeUuid);
    const stats = v.json('stats', req.stats, { maxBytes: MAX_STATS_BYTES, object: true, dflt: '{}' });
    // Many nodes beat on a period: grouped into one statement per window (writes.ts).
    const at = groups.commit.enabled ? await groups.commit.submit(groups.kinds.heartbeat, { nodeUuid, stats }) : await heartbeatAlone(sql, { nodeUuid, stats });
    return { databaseTime: isoTime(at) };
  },

  async GetClusterStatus(_req, { sql, config }) {
    const [now, replicas, nodes] = await Promise.all([
      q.selectDatabaseTime(sql),
      q.selectReplicaStatus(sql),
      q.selectNodeStatus(sql),
    ]);
    const ms = (us: string | null): number => (us === null ? -1 : Math.floor(Number(us) / 1000));
    return {
      databaseTime: isoTime(now),
      replicas: replicas.map((r) => ({
        replicaId: r.replica_id,
        address: r.address,
        metricsAddress: r.metrics_address,
        startedAt: isoTime(r.started_at),
        heartbeatAgeMs: ms(r.age_us),
        live: ms(r.age_us) < config.replicaLiveMs,
      })),
      nodes: nodes.map((n) => ({
        nodeUuid: n.uuid,
        fqdn: n.fqdn,
        heartbeatAgeMs: ms(n.age_us),
        live: n.age_us !== null && ms(n.age_us) < config.nodeLiveMs,
        stats: n.stats ?? '',
      })),
    };
  },
};
