// Original file: proto/sfdb/v1/queue.proto

import type { WorkItem as _sfdb_v1_WorkItem, WorkItem__Output as _sfdb_v1_WorkItem__Output } from '../../sfdb/v1/WorkItem.js';

export interface ListWorkItemsResponse {
  'items'?: (_sfdb_v1_WorkItem)[];
  'nextPageToken'?: (string);
}

export interface ListWorkItemsResponse__Output {
  'items': (_sfdb_v1_WorkItem__Output)[];
  'nextPageToken': (string);
}
