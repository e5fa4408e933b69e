// Work items read back: GetWorkItem (one item by id) and ListWorkItems (one node's queue,
// every state or one, paged). Reads on demand — a daemon's tests, an operator's sf-ctl,
// a caller that wants an item's result — never periodic, so no load budget row: each call
// is one statement (a unique-key read, or one index range of the page's length).
// - GetWorkItem of an id that does not exist answers found=false (a point read, as every
//   Get*); an outage is UNAVAILABLE, never "not found".
// - ListWorkItems pages as every listing (server/paging.ts: page_size 1..1000, 0 = 100),
//   and cuts a page short once its JSON passes MAX_PAGE_JSON_BYTES (always one item at
//   least): an item carries up to 64 KiB of payload and 64 KiB of result, and a full page
//   of those would pass the 4 MiB a grpc-js client receives by default.
import { InvalidArgumentError } from '../../errors.js';
import { decodePageToken, pageWithin } from '../../paging.js';
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';
import { toWorkItem } from './handlers.js';
import * as q from './queries.js';
import { listWorkItems } from './read-queries.js';

const STATES = ['QUEUED', 'CLAIMED', 'SUCCEEDED', 'FAILED'] as const;

/** A page's payload, result and message bytes together, past which it ends (1 MiB). */
export const MAX_PAGE_JSON_BYTES = 1024 * 1024;

function jsonBytes(row: q.WorkItemRow): number {
  return Buffer.byteLength(row.payload) + (row.result === null ? 0 : Buffer.byteLength(row.result)) + Buffer.byteLength(row.message);
}

/** The (state, seq) a page token resumes after. */
function cursor(token: string): { state: string; seq: string } | undefined {
  const key = decodePageToken('page_token', token, 2);
  if (!key) return undefined;
  const [state, seq] = key as [string, string];
  if (!(STATES as readonly string[]).includes(state) || !/^\d{1,20}$/.test(seq)) {
    throw new InvalidArgumentError('page_token', 'not a page token from this service');
  }
  return { state, seq };
}

export const queueReadHandlers: Handlers<'GetWorkItem' | 'ListWorkItems'> = {
  async GetWorkItem(req, { sql }) {
    const row = await q.selectWorkItem(sql, v.uuid('id', req.id));
    return row ? { found: true, item: toWorkItem(row) } : { found: false };
  },

  async ListWorkItems(req, { sql }) {
    const nodeUuid = v.uuid('node_uuid', req.nodeUuid);
    const queue = v.name('queue', req.queue);
    const state = v.enumValue('state', req.state, STATES, { optional: true });
    const limit = v.pageSize('page_size', req.pageSize);
    const after = cursor(req.pageToken);
    const rows = await listWorkItems(sql, { nodeUuid, queue, state, after, limit: limit + 1 });
    const { items, nextPageToken } = pageWithin(rows, limit, (r) => [r.state, r.seq], { maxBytes: MAX_PAGE_JSON_BYTES, bytesOf: jsonBytes });
    return { items: items.map(toWorkItem), nextPageToken };
  },
};
