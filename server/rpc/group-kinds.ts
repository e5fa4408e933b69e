// The writes the tier group-commits (server/db/group-commit.ts): node heartbeats, daemon
// states and attribute writes, the frequent single-row writes every node makes on a
// period. Each kind's batch is one statement (a daemon state's, one transaction: its change
// rows go with it); its alone path is the one-call statement the handler runs when
// grouping is off. Batches run without a call's deadline: they answer many calls.
import type { ChangeFeed } from '../changefeed/feed.js';
import { ALONE, GroupCommit } from '../db/group-commit.js';
import { FencedError } from '../errors.js';
import type { BatchKind } from '../db/group-commit.js';
import type { Sql } from '../db/pool.js';
import type { Metrics } from '../metrics.js';
import * as ds from './daemon-state/queries.js';
import type { DaemonStateRow } from './daemon-state/queries.js';
import * as nq from './nodes/queries.js';
import { setAttributesAlone } from './objects/attributes.js';
import { upsertAttributesOfMany } from './objects/attribute-queries.js';
import type { AttributeWrite } from './objects/attribute-queries.js';
import type { Clock } from '../../proto/clock.js';
import { topics } from '../../proto/topics.js';
import type { DaemonStateWrite, GroupKinds, Groups } from './groups.js';

export type { Groups } from './groups.js';

/** What a write that an operator's hold refused answers: FAILED_PRECONDITION, nothing written. */
function heldError(a: DaemonStateWrite): FencedError {
  return new FencedError(
    `daemon ${a.daemon} on node ${a.nodeUuid} is held stopped by an operator: ${a.state} not recorded; sf-ctl start-daemon ${a.nodeUuid} ${a.daemon} releases it`,
  );
}

/** A daemon state's write and its change row, in one transaction of the feed. */
export async function setDaemonStateAlone(feed: ChangeFeed, sql: Sql, a: DaemonStateWrite): Promise<DaemonStateRow> {
  const row = await feed.write(sql, async (tx, publish) => {
    const r = await ds.upsertDaemonState(tx, a);
    // Thrown inside the transaction: it rolls back, and no change row is published.
    if (r && ds.refusedByHold(r, a.state, a.hold)) throw heldError(a);
    // The daemon waits on its own state topic: an operator stop reaches it at once.
    publish({ topic: topics.daemonState(a.nodeUuid, a.daemon), objectType: 'daemon_state', objectId: a.daemon, kind: 'state' });
    return r;
  });
  if (!row) throw new Error('daemon state upsert returned no row');
  return row;
}

/** Rows in a stable order, so two batches writing the same rows lock them in one order. */
function sorted<R>(rows: readonly R[], key: (r: R) => string): R[] {
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

export function groupKinds(sql: Sql, feed: ChangeFeed): GroupKinds {
  const attributes = (name: string, nodes: boolean): BatchKind<AttributeWrite, void> => ({
    name,
    async batch(rows) {
      const written = await upsertAttributesOfMany(sql, nodes, sorted(rows, (w) => `${w.type}/${w.uuid}`));
      return rows.map((w) => (written.has(`${w.type}/${w.uuid}`) ? undefined : ALONE));
    },
    alone: (w) => setAttributesAlone(sql, w),
  });
  return {
    heartbeat: {
      name: 'heartbeat',
      async batch(rows) {
        const at = await nq.upsertHeartbeats(sql, sorted(rows, (b) => b.nodeUuid));
        return rows.map((b) => at.get(b.nodeUuid) ?? ALONE);
      },
      alone: (b) => nq.upsertHeartbeat(sql, b.nodeUuid, b.stats),
    },
    daemonState: {
      name: 'daemon_state',
      async batch(rows) {
        const key = (a: DaemonStateWrite): string => `${a.nodeUuid}/${a.daemon}`;
        const written = await feed.write(sql, async (tx, publish) => {
          const r = await ds.upsertDaemonStates(tx, sorted(rows, key));
          for (const a of new Map(rows.map((x) => [key(x), x])).values()) {
            const w = r.get(key(a));
            if (w && ds.refusedByHold(w, a.state, undefined)) continue; // left as it was: nothing to announce
            publish({ topic: topics.daemonState(a.nodeUuid, a.daemon), objectType: 'daemon_state', objectId: a.daemon, kind: 'state' });
          }
          return r;
        });
        // A row its hold kept out runs alone, which answers it FAILED_PRECONDITION.
        return rows.map((a) => {
          const w = written.get(key(a));
          return w === undefined || ds.refusedByHold(w, a.state, undefined) ? ALONE : w;
        });
      },
      alone: (a) => setDaemonStateAlone(feed, sql, a),
    },
    nodeAttributes: attributes('node_attributes', true),
    objectAttributes: attributes('object_attributes', false),
  };
}

export function createGroups(options: { windowMs: number; maxCalls: number }, sql: Sql, feed: ChangeFeed, metrics: Metrics, clock: Clock): Groups {
  return { commit: new GroupCommit(options, metrics, clock), kinds: groupKinds(sql, feed) };
}
