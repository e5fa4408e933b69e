// Maintenance RPCs: singleton jobs, run by whoever holds a lease (the elected cluster
// daemon). Their statements count as source `maintenance`.
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';
import { holdFence, requiredFence } from '../fence.js';
import { topics } from '@sfdb/proto/topics';
import { pruneOlderThan } from '../../changefeed/queries.js';
import { foldRetiredCounters } from '../counter-floor.js';
import * as q from './queries.js';

/** Change rows deleted per statement: a bounded batch, so no statement holds locks for long. */
const PRUNE_BATCH = 1000;
/** Retired counters folded into the floor per call (in batches of 1000); more: `more`. */
const FOLD_PER_CALL = 10_000;

export const maintenanceHandlers: Handlers<'RequeueExpiredClaims' | 'SweepReplicaRegistry' | 'PruneChanges'> = {
  async RequeueExpiredClaims(req, { write }) {
    const f = requiredFence(req.fence);
    const limit = v.pageSize('limit', req.limit, { max: 10_000, dflt: 1000 });
    return write(async (tx, publish) => {
      await holdFence(tx, f);
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
    const f = requiredFence(req.fence);
    const requested = v.int64('older_than_ms', req.olderThanMs, 0, 86_400_000 * 30);
    const olderThanMs = requested === 0 ? config.replicaSweepAfterMs : requested;
    if (olderThanMs < config.replicaLiveMs) {
      throw new v.InvalidArgumentError('older_than_ms', `must be 0 or at least the liveness window (${config.replicaLiveMs} ms)`);
    }
    return sqlAs('maintenance').transaction(async (tx) => {
      await holdFence(tx, f);
      const ids = await q.deleteStaleReplicas(tx, olderThanMs);
      return { removed: String(ids.length), replicaIds: ids };
    });
  },

  async PruneChanges(req, { sqlAs, config, metrics }) {
    const f = requiredFence(req.fence);
    const limit = v.pageSize('limit', req.limit, { max: 100_000, dflt: 10_000 });
    const sql = sqlAs('changefeed');
    // The fence is checked, not held: pruning old rows cannot conflict with a new holder.
    await sql.transaction((tx) => holdFence(tx, f));
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
