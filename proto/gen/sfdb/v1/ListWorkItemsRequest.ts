// Original file: proto/sfdb/v1/queue.proto

import type { WorkItemState as _sfdb_v1_WorkItemState, WorkItemState__Output as _sfdb_v1_WorkItemState__Output } from '../../sfdb/v1/WorkItemState.js';

/**
 * One (node, queue)'s items, every state or one, history included. With `state`, in
 * queue order (seq); without, grouped by state (CLAIMED, FAILED, QUEUED, SUCCEEDED), each
 * in queue order. A page is cut short of `page_size` once its payloads, results and messages
 * pass 1 MiB together, so that every answer fits a client's default 4 MiB message; it always
 * holds at least one item.
 */
export interface ListWorkItemsRequest {
  'nodeUuid'?: (string);
  'queue'?: (string);
  /**
   * WORK_ITEM_STATE_UNSPECIFIED: every state.
   */
  'state'?: (_sfdb_v1_WorkItemState);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

/**
 * One (node, queue)'s items, every state or one, history included. With `state`, in
 * queue order (seq); without, grouped by state (CLAIMED, FAILED, QUEUED, SUCCEEDED), each
 * in queue order. A page is cut short of `page_size` once its payloads, results and messages
 * pass 1 MiB together, so that every answer fits a client's default 4 MiB message; it always
 * holds at least one item.
 */
export interface ListWorkItemsRequest__Output {
  'nodeUuid': (string);
  'queue': (string);
  /**
   * WORK_ITEM_STATE_UNSPECIFIED: every state.
   */
  'state': (_sfdb_v1_WorkItemState__Output);
  'pageSize': (number);
  'pageToken': (string);
}
