// Original file: proto/sfdb/v1/queue.proto

import type { Claim as _sfdb_v1_Claim, Claim__Output as _sfdb_v1_Claim__Output } from '../../sfdb/v1/Claim.js';
import type { Long } from '@grpc/proto-loader';

export interface DequeueResponse {
  'claims'?: (_sfdb_v1_Claim)[];
  /**
   * When nothing was claimed: milliseconds until the earliest delayed QUEUED item of the
   * asked queues is due, by database time (at least 1); 0 when there is none, or when
   * claims were returned.
   */
  'nextDueInMs'?: (number | string | Long);
}

export interface DequeueResponse__Output {
  'claims': (_sfdb_v1_Claim__Output)[];
  /**
   * When nothing was claimed: milliseconds until the earliest delayed QUEUED item of the
   * asked queues is due, by database time (at least 1); 0 when there is none, or when
   * claims were returned.
   */
  'nextDueInMs': (string);
}
