// NodeHeartbeat's write: every node beats on a period, so its calls are group-committed
// (server/db/group-commit.ts), one statement per window for all of them; its alone path
// is the one-call statement the handler runs when grouping is off. A heartbeat naming a
// node that does not exist is refused NOT_FOUND, and nothing is written for it (docs/contract.md,
// "Writes name real targets").
import { Refusal, inLockOrder, ownedBy } from '../../db/group-commit.js';
import type { BatchKind } from '../../db/group-commit.js';
import type { Sql } from '../../db/sql.js';
import type { NotFoundError } from '../../errors.js';
import { missing } from '../targets.js';
import * as q from './queries.js';

export interface Heartbeat {
  nodeUuid: string;
  /** The node's stats, validated JSON object text. */
  stats: string;
}

/** The answer to a heartbeat naming a node that does not exist. */
const noNode = (nodeUuid: string): NotFoundError => missing({ field: 'node_uuid', type: 'node', uuid: nodeUuid });

/** A heartbeat on its own: one statement; NOT_FOUND for a missing node. Answers the recorded time. */
export async function heartbeatAlone(sql: Sql, b: Heartbeat): Promise<string> {
  const at = await q.upsertHeartbeat(sql, b.nodeUuid, b.stats);
  if (at === undefined) throw noNode(b.nodeUuid);
  return at;
}

/**
 * The heartbeats of a window in one statement, writing only nodes that exist, each read
 * under a shared lock (server/rpc/targets.ts); a node missing from its answer is refused
 * here: no statement of its own. Batches run without a call's deadline: they answer many calls.
 */
export function heartbeatKind(sql: Sql): BatchKind<Heartbeat, string> {
  return {
    name: 'heartbeat',
    // Written by every node on a period, and nobody waits on its answer.
    periodic: true,
    async batch(rows, owner) {
      const at = await q.upsertHeartbeats(ownedBy(sql, owner), inLockOrder(rows, (b) => b.nodeUuid));
      return rows.map((b) => at.get(b.nodeUuid) ?? new Refusal(noNode(b.nodeUuid)));
    },
    alone: (b, owner) => heartbeatAlone(ownedBy(sql, owner), b),
  };
}
