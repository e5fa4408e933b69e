// Maintenance RPCs: singleton jobs, run by whoever holds a lease (the elected cluster
// daemon). Their statements count as source `maintenance`.
import { FencedError } from '../../errors.js';
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';
import type { LeaseFence__Output } from '@sfdb/proto/gen/sfdb/v1/LeaseFence';
import { topics } from '@sfdb/proto/topics';
import { pruneOlderThan } from '../../changefeed/queries.js';
import { foldRetiredCounters } from '../counter-floor.js';
import * as q from './queries.js';

/** Change rows deleted per statement: a bounded batch, so no statement holds locks for long. */
const PRUNE_BATCH = 1000;
/** Retired counters folded into the floor per call (in batches of 1000); more: `more`. */
const FOLD_PER_CALL = 10_000;

const LEASE_NAME = /^[a-z0-9][a-z0-9_.:/-]*$/;

function fence(f: LeaseFence__Output | null): { name: string; holder: string; token: string } {
  if (!f) throw new v.InvalidArgumentError('fence', 'required');
  const name = v.text('fence.name', f.name, { max: 128, required: true });
  if (!LEASE_NAME.test(name)) throw new v.InvalidArgumentError('fence.name', 'must be lower-case letters, digits, _ . : / -');
  return {
    name,
    holder: v.holder('fence.holder', f.holder, { required: true }),
    token: v.int64String('fence.token', f.token, { min: 1n }),
  };
}

export const maintenanceHandlers: Handlers<'RequeueExpiredClaims' | 'SweepReplicaRegistry' | 'PruneChanges'> = {
  async RequeueExpiredClaims(req, { write }) {
    const f = fence(req.fence);
    const limit = v.pageSize('limit', req.limit, { max: 10_000, dflt: 1000 });
    return write(async (tx, publish) => {
      if (!(await q.holdFence(tx, f))) throw new FencedError(`fence: lease ${f.name} is not held by ${f.holder} at token ${f.token}`);
      const expired = await q.lockExpiredClaims(tx, limit);
      const requeued = await q.requeueClaims(
        tx,
        expired.map((c) => c.seq),
      );
      // Back in their queues: each node's daemon hears its item at once.
      for (const c of expired) publish({ topic: topics.queue(c.node_uuid, c.queue), objectType: 'work_item', objectId: c.id, kind: 'state' });
      return { requeued: String(requeued) };
    }, 'maintenance');
  },

  async SweepReplicaRegistry(req, { sqlAs, config }) {
    const f = fence(req.fence);
    const requested = v.int64('older_than_ms', req.olderThanMs, 0, 86_400_000 * 30);
    const olderThanMs = requested === 0 ? config.replicaSweepAfterMs : requested;
    if (olderThanMs < config.replicaLiveMs) {
      throw new v.InvalidArgumentError('older_than_ms', `must be 0 or at least the liveness window (${config.replicaLiveMs} ms)`);
    }
    return sqlAs('maintenance').transaction(async (tx) => {
      if (!(await q.holdFence(tx, f))) throw new FencedError(`fence: lease ${f.name} is not held by ${f.holder} at token ${f.token}`);
      const ids = await q.deleteStaleReplicas(tx, olderThanMs);
      return { removed: String(ids.length), replicaIds: ids };
    });
  },

  async PruneChanges(req, { sqlAs, config, metrics }) {
    const f = fence(req.fence);
    const limit = v.pageSize('limit', req.limit, { max: 100_000, dflt: 10_000 });
    const sql = sqlAs('changefeed');
    // The fence is checked, not held: pruning old rows cannot conflict with a new holder.
    const held = await sql.transaction((tx) => q.holdFence(tx, f));
    if (!held) throw new FencedError(`fence: lease ${f.name} is not held by ${f.holder} at token ${f.token}`);
    let deleted = 0;
    let more = false;
    while (deleted < limit) {
      const batch = Math.min(PRUNE_BATCH, limit - deleted);
      const n = await pruneOlderThan(sql, config.changefeedRetentionMs, batch);
      deleted += n;
      if (n < batch) break;
      more = deleted >= limit;
    }
    // The other history deletes leave: retired counters past their retention (counter-floor.ts).
    const fold = await foldRetiredCounters(sqlAs('maintenance'), config.retiredCounterRetentionMs, FOLD_PER_CALL);
    metrics.retiredCountersFolded.inc(fold.folded);
    return { deleted: String(deleted), more: more || fold.more, retiredFolded: String(fold.folded) };
  },
};
