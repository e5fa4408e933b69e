// Original file: proto/sfdb/v1/queue.proto

import type { WorkItem as _sfdb_v1_WorkItem, WorkItem__Output as _sfdb_v1_WorkItem__Output } from '../../sfdb/v1/WorkItem.js';

export interface GetWorkItemResponse {
  'found'?: (boolean);
  'item'?: (_sfdb_v1_WorkItem | null);
}

export interface GetWorkItemResponse__Output {
  'found': (boolean);
  'item': (_sfdb_v1_WorkItem__Output | null);
}
