// The writes the tier group-commits (server/db/group-commit.ts): node heartbeats, daemon
// states and attribute writes, the frequent single-row writes every node makes on a
// period. Each kind's batch is one statement (a daemon state's, one transaction: its change
// rows go with it); its alone path is the one-call statement the handler runs when
// grouping is off. Batches run without a call's deadline: they answer many calls.
// A call naming a node or object that does not exist is refused NOT_FOUND by its batch,
// and nothing is written for it (README, "Writes name real targets").
import type { ChangeFeed } from '../changefeed/feed.js';
import { ALONE, GroupCommit, Refusal } from '../db/group-commit.js';
import { FencedError } from '../errors.js';
import type { BatchKind, GroupCommitOptions } from '../db/group-commit.js';
import type { Sql } from '../db/sql.js';
import type { Metrics } from '../metrics.js';
import * as ds from './daemon-state/queries.js';
import * as nq from './nodes/queries.js';
import type { NotFoundError } from '../errors.js';
import { setAttributesAlone } from './objects/attributes.js';
import { upsertAttributesOfMany } from './objects/attribute-queries.js';
import { existingTargets, missing } from './targets.js';
import type { AttributeWrite } from './objects/attribute-queries.js';
import type { Clock } from '@sfdb/proto/runtime/clock';
import { topics } from '@sfdb/proto/topics';
import type { DaemonStateWrite, DaemonStateWritten, GroupKinds, Groups, Heartbeat } from './groups.js';
import type { Published } from '../changefeed/publish.js';


/** What a write that an operator's hold refused answers: FAILED_PRECONDITION, nothing written. */
function heldError(a: DaemonStateWrite): FencedError {
  return new FencedError(
    `daemon ${a.daemon} on node ${a.nodeUuid} is held stopped by an operator: ${a.state} not recorded; sf-ctl start-daemon ${a.nodeUuid} ${a.daemon} releases it`,
  );
}

/** The answer to a write naming a node that does not exist. */
const noNode = (nodeUuid: string): NotFoundError => missing({ field: 'node_uuid', type: 'node', uuid: nodeUuid });

/** A daemon state's write and its change row, in one transaction of the feed; NOT_FOUND for a missing node. */
export async function setDaemonStateAlone(feed: ChangeFeed, sql: Sql, a: DaemonStateWrite): Promise<DaemonStateWritten> {
  const topic = topics.daemonState(a.nodeUuid, a.daemon);
  let published: Published | undefined;
  const row = await feed.write(sql, async (tx, publish) => {
    const r = await ds.upsertDaemonState(tx, a);
    // Thrown inside the transaction: it rolls back, and no change row is published.
    if (r && ds.refusedByHold(r, a.state, a.hold)) throw heldError(a);
    // The daemon waits on its own state topic: an operator stop reaches it at once.
    if (r) published = publish({ topic, objectType: 'daemon_state', objectId: a.daemon, kind: a.reported ? 'reported' : 'state' });
    return r;
  });
  if (!row) throw noNode(a.nodeUuid);
  return { row, changeSeq: published?.seqOn(topic) ?? '0' };
}

/** A heartbeat on its own: one statement; NOT_FOUND for a missing node. */
export async function heartbeatAlone(sql: Sql, b: Heartbeat): Promise<string> {
  const at = await nq.upsertHeartbeat(sql, b.nodeUuid, b.stats);
  if (at === undefined) throw noNode(b.nodeUuid);
  return at;
}

/** Rows in a stable order, so two batches writing the same rows lock them in one order. */
function sorted<R>(rows: readonly R[], key: (r: R) => string): R[] {
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

// Every batch writes only rows whose target exists, read under a shared lock in its
// statement (server/rpc/targets.ts); a call whose row was not written named a missing
// target and is refused NOT_FOUND by the batch itself: no statement of its own.
export function groupKinds(sql: Sql, feed: ChangeFeed): GroupKinds {
  const attributes = (name: string, nodes: boolean): BatchKind<AttributeWrite, void> => ({
    name,
    // A node's attributes are its metrics, written by every node on a period.
    periodic: nodes,
    async batch(rows) {
      const key = (w: AttributeWrite): string => `${w.type}/${w.uuid}`;
      const written = await upsertAttributesOfMany(sql, nodes, sorted(rows, key));
      // Not written: the object is missing (refused here), or near its bound (the exact
      // path says so). One more statement, only when some call was not written.
      const unwritten = rows.filter((w) => !written.has(key(w)));
      const targets = unwritten.map((w) => ({ field: 'uuid', type: w.type, uuid: w.uuid }));
      const found = await existingTargets(sql, targets, false);
      const refused = new Map(targets.filter((_, i) => !found.has(i)).map((t) => [`${t.type}/${t.uuid}`, missing(t)]));
      return rows.map((w) => {
        if (written.has(key(w))) return undefined;
        const err = refused.get(key(w));
        return err ? new Refusal(err) : ALONE;
      });
    },
    alone: (w) => setAttributesAlone(sql, w),
  });
  return {
    heartbeat: {
      name: 'heartbeat',
      periodic: true,
      async batch(rows) {
        const at = await nq.upsertHeartbeats(sql, sorted(rows, (b) => b.nodeUuid));
        return rows.map((b) => at.get(b.nodeUuid) ?? new Refusal(noNode(b.nodeUuid)));
      },
      alone: (b) => heartbeatAlone(sql, b),
    },
    daemonState: {
      name: 'daemon_state',
      async batch(rows) {
        const key = (a: DaemonStateWrite): string => `${a.nodeUuid}/${a.daemon}`;
        const published = new Map<string, Published>();
        const written = await feed.write(sql, async (tx, publish) => {
          const r = await ds.upsertDaemonStates(tx, sorted(rows, key));
          // A daemon's one change is a report only when every write of it in the batch was.
          const reported = new Map<string, boolean>();
          for (const x of rows) reported.set(key(x), (reported.get(key(x)) ?? true) && x.reported);
          for (const a of new Map(rows.map((x) => [key(x), x])).values()) {
            const w = r.get(key(a));
            if (w === undefined) continue; // a missing node: nothing written
            if (ds.refusedByHold(w, a.state, undefined)) continue; // left as it was: nothing to announce
            const kind = reported.get(key(a)) === true ? 'reported' : 'state';
            published.set(key(a), publish({ topic: topics.daemonState(a.nodeUuid, a.daemon), objectType: 'daemon_state', objectId: a.daemon, kind }));
          }
          return r;
        });
        // A missing node is refused NOT_FOUND here; a row its hold kept out runs alone,
        // which answers it FAILED_PRECONDITION. Two writes of one daemon in a batch share
        // its last row and its one change: each is answered that row.
        return rows.map((a) => {
          const w = written.get(key(a));
          if (w === undefined) return new Refusal(noNode(a.nodeUuid));
          if (ds.refusedByHold(w, a.state, undefined)) return ALONE;
          return { row: w, changeSeq: published.get(key(a))?.seqOn(topics.daemonState(a.nodeUuid, a.daemon)) ?? '0' };
        });
      },
      alone: (a) => setDaemonStateAlone(feed, sql, a),
    },
    nodeAttributes: attributes('node_attributes', true),
    objectAttributes: attributes('object_attributes', false),
  };
}

export function createGroups(options: GroupCommitOptions, sql: Sql, feed: ChangeFeed, metrics: Metrics, clock: Clock): Groups {
  return { commit: new GroupCommit(options, metrics, clock), kinds: groupKinds(sql, feed) };
}
