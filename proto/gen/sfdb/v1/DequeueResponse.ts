// Original file: proto/sfdb/v1/queue.proto

import type { Claim as _sfdb_v1_Claim, Claim__Output as _sfdb_v1_Claim__Output } from '../../sfdb/v1/Claim.js';
import type { Long } from '@grpc/proto-loader';

export interface DequeueResponse {
  'claims'?: (_sfdb_v1_Claim)[];
  /**
   * When fewer than `limit` items were claimed (every asked queue was scanned): milliseconds
   * until the earliest delayed QUEUED item of the asked queues is due, by database time (at
   * least 1); 0 when there is none, or when the batch was full (more may be due now).
   */
  'nextDueInMs'?: (number | string | Long);
}

export interface DequeueResponse__Output {
  'claims': (_sfdb_v1_Claim__Output)[];
  /**
   * When fewer than `limit` items were claimed (every asked queue was scanned): milliseconds
   * until the earliest delayed QUEUED item of the asked queues is due, by database time (at
   * least 1); 0 when there is none, or when the batch was full (more may be due now).
   */
  'nextDueInMs': (string);
}
