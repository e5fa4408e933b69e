// Work items listed on demand (ListWorkItems; GetWorkItem is queries.ts selectWorkItem):
// not periodic, and never on a daemon's hot path. A listing is a keyset page of one
// (node, queue) on the index work_items_dequeue (node_uuid, queue, state, seq), forced:
// its cost is the page read, never the queue's history (finished items stay in the
// table) — test/integration/work-items.test.ts EXPLAINs it and counts the rows it reads.
import type { Sql } from '../../db/sql.js';
import { COLUMNS } from './queries.js';
import type { WorkItemRow } from './queries.js';

export interface WorkItemScope {
  nodeUuid: string;
  queue: string;
  /** One state, or undefined for every state. */
  state: string | undefined;
  /** The (state, seq) of the previous page's last item. */
  after: { state: string; seq: string } | undefined;
  limit: number;
}

/**
 * One page of a (node, queue)'s items. With a state, every scope column is an equality and
 * the seek is `seq > ?`; without, the order is (state, seq) and the seek the two ranges
 * `state > ?` and `state = ? AND seq > ?` of the same index prefix.
 */
export async function listWorkItems(sql: Sql, s: WorkItemScope): Promise<WorkItemRow[]> {
  const where = ['node_uuid = ?', 'queue = ?'];
  const params: (string | number)[] = [s.nodeUuid, s.queue];
  if (s.state !== undefined) {
    where.push('state = ?');
    params.push(s.state);
    // A cursor from another state's page: resume past it in (state, seq) order all the same.
    if (s.after !== undefined && s.after.state > s.state) return [];
    if (s.after !== undefined && s.after.state === s.state) {
      where.push('seq > ?');
      params.push(s.after.seq);
    }
  } else if (s.after !== undefined) {
    where.push('(state > ? OR (state = ? AND seq > ?))');
    params.push(s.after.state, s.after.state, s.after.seq);
  }
  // `ORDER BY seq` with the state fixed: MariaDB sorts `ORDER BY state, seq` (a filesort of
  // the whole range) though the state is a constant.
  return sql.rows<WorkItemRow>(
    `SELECT ${COLUMNS} FROM work_items FORCE INDEX (work_items_dequeue)
     WHERE ${where.join(' AND ')} ORDER BY ${s.state !== undefined ? 'seq' : 'state, seq'} LIMIT ?`,
    [...params, s.limit],
  );
}
