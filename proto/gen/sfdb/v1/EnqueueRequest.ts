// Original file: proto/sfdb/v1/queue.proto

import type { LeaseFence as _sfdb_v1_LeaseFence, LeaseFence__Output as _sfdb_v1_LeaseFence__Output } from '../../sfdb/v1/LeaseFence.js';
import type { Long } from '@grpc/proto-loader';

export interface EnqueueRequest {
  /**
   * Chosen by the client (a uuid): enqueue is idempotent.
   */
  'id'?: (string);
  'nodeUuid'?: (string);
  'queue'?: (string);
  'payload'?: (string);
  /**
   * Not dequeued before this many milliseconds have passed (database time).
   */
  'delayMs'?: (number | string | Long);
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence'?: (_sfdb_v1_LeaseFence | null);
}

export interface EnqueueRequest__Output {
  /**
   * Chosen by the client (a uuid): enqueue is idempotent.
   */
  'id': (string);
  'nodeUuid': (string);
  'queue': (string);
  'payload': (string);
  /**
   * Not dequeued before this many milliseconds have passed (database time).
   */
  'delayMs': (string);
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence': (_sfdb_v1_LeaseFence__Output | null);
}
