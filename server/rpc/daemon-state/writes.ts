// SetNodeDaemonState's write: every daemon of a starting cluster records its state at
// once, so those calls are group-committed (server/db/group-commit.ts), one transaction
// per window with their change rows; its alone path is the one-call transaction the
// handler runs when grouping is off or the call changes an operator's hold. A state naming
// a node that does not exist is refused NOT_FOUND, and nothing is written for it (docs/contract.md,
// "Writes name real targets"); one an operator's hold keeps out is FAILED_PRECONDITION.
import type { Context } from '@opentelemetry/api';
import { topics } from '@sfdb/proto/topics';
import type { ChangeFeed } from '../../changefeed/feed.js';
import type { Published } from '../../changefeed/publish.js';
import { ALONE, Refusal, inLockOrder, ownedBy } from '../../db/group-commit.js';
import type { BatchKind } from '../../db/group-commit.js';
import type { Sql } from '../../db/sql.js';
import { FencedError } from '../../errors.js';
import type { NotFoundError } from '../../errors.js';
import { missing } from '../targets.js';
import * as q from './queries.js';

export interface DaemonStateWrite {
  nodeUuid: string;
  daemon: string;
  state: string;
  message: string;
  /** An operator's stop or start; undefined (every other write, and all grouped ones): the hold stays. */
  hold?: q.HoldChange;
  /** Written by the daemon itself (caller node and daemon are the state's, no hold change): its change is kind 'reported'. */
  reported: boolean;
}

/** A daemon state as written, and the seq of the change it published on its topic ('0': none). */
export interface DaemonStateWritten {
  row: q.DaemonStateRow;
  changeSeq: string;
}

/** What a write that an operator's hold refused answers: FAILED_PRECONDITION, nothing written. */
function heldError(a: DaemonStateWrite): FencedError {
  return new FencedError(
    `daemon ${a.daemon} on node ${a.nodeUuid} is held stopped by an operator: ${a.state} not recorded; sf-ctl start-daemon ${a.nodeUuid} ${a.daemon} releases it`,
  );
}

/** The answer to a write naming a node that does not exist. */
const noNode = (nodeUuid: string): NotFoundError => missing({ field: 'node_uuid', type: 'node', uuid: nodeUuid });

/** A daemon state's write and its change row, in one transaction of the feed; NOT_FOUND for a missing node. */
export async function setDaemonStateAlone(feed: ChangeFeed, sql: Sql, a: DaemonStateWrite, writer?: Context): Promise<DaemonStateWritten> {
  const topic = topics.daemonState(a.nodeUuid, a.daemon);
  let published: Published | undefined;
  const row = await feed.write(sql, async (tx, publish) => {
    const r = await q.upsertDaemonState(tx, a);
    // Thrown inside the transaction: it rolls back, and no change row is published.
    if (r && q.refusedByHold(r, a.state, a.hold)) throw heldError(a);
    // The daemon waits on its own state topic: an operator stop reaches it at once.
    if (r) published = publish({ topic, objectType: 'daemon_state', objectId: a.daemon, kind: a.reported ? 'reported' : 'state' });
    return r;
  }, writer);
  if (!row) throw noNode(a.nodeUuid);
  return { row, changeSeq: published?.seqOn(topic) ?? '0' };
}

/**
 * The states of a window in one transaction: one statement writing only nodes that exist,
 * each read under a shared lock (server/rpc/targets.ts), and each daemon's one change row.
 * Only writes that leave the hold as it is come here. Batches run without a call's
 * deadline: they answer many calls.
 */
export function daemonStateKind(sql: Sql, feed: ChangeFeed): BatchKind<DaemonStateWrite, DaemonStateWritten> {
  const key = (a: DaemonStateWrite): string => `${a.nodeUuid}/${a.daemon}`;
  return {
    name: 'daemon_state',
    async batch(rows, owner) {
      const published = new Map<string, Published>();
      // The batch's span (when it answers a sampled call) is its changes' writer.
      const written = await feed.write(ownedBy(sql, owner), async (tx, publish) => {
        const r = await q.upsertDaemonStates(tx, inLockOrder(rows, key));
        // A daemon's one change is a report only when every write of it in the batch was.
        const reported = new Map<string, boolean>();
        for (const x of rows) reported.set(key(x), (reported.get(key(x)) ?? true) && x.reported);
        for (const a of new Map(rows.map((x) => [key(x), x])).values()) {
          const w = r.get(key(a));
          if (w === undefined) continue; // a missing node: nothing written
          if (q.refusedByHold(w, a.state, undefined)) continue; // left as it was: nothing to announce
          const kind = reported.get(key(a)) === true ? 'reported' : 'state';
          published.set(key(a), publish({ topic: topics.daemonState(a.nodeUuid, a.daemon), objectType: 'daemon_state', objectId: a.daemon, kind }));
        }
        return r;
      }, owner?.traceContext);
      // A missing node is refused NOT_FOUND here; a row its hold kept out runs alone,
      // which answers it FAILED_PRECONDITION. Two writes of one daemon in a batch share
      // its last row and its one change: each is answered that row.
      return rows.map((a) => {
        const w = written.get(key(a));
        if (w === undefined) return new Refusal(noNode(a.nodeUuid));
        if (q.refusedByHold(w, a.state, undefined)) return ALONE;
        return { row: w, changeSeq: published.get(key(a))?.seqOn(topics.daemonState(a.nodeUuid, a.daemon)) ?? '0' };
      });
    },
    alone: (a, owner) => setDaemonStateAlone(feed, ownedBy(sql, owner), a, owner?.traceContext),
  };
}
