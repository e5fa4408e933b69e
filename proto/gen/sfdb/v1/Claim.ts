// Original file: proto/sfdb/v1/queue.proto

import type { WorkItem as _sfdb_v1_WorkItem, WorkItem__Output as _sfdb_v1_WorkItem__Output } from '../../sfdb/v1/WorkItem.js';
import type { Long } from '@grpc/proto-loader';

export interface Claim {
  'item'?: (_sfdb_v1_WorkItem | null);
  'epoch'?: (number | string | Long);
  'holder'?: (string);
  'leaseExpiresAt'?: (string);
}

export interface Claim__Output {
  'item': (_sfdb_v1_WorkItem__Output | null);
  'epoch': (string);
  'holder': (string);
  'leaseExpiresAt': (string);
}
