// Original file: proto/sfdb/v1/queue.proto

import type { WorkItemState as _sfdb_v1_WorkItemState, WorkItemState__Output as _sfdb_v1_WorkItemState__Output } from '../../sfdb/v1/WorkItemState.js';
import type { Long } from '@grpc/proto-loader';

export interface WorkItem {
  'id'?: (string);
  'nodeUuid'?: (string);
  'queue'?: (string);
  /**
   * JSON value.
   */
  'payload'?: (string);
  'state'?: (_sfdb_v1_WorkItemState);
  /**
   * Grows by one on every claim (a restore from backup moves it past every epoch issued
   * before it); later writes must present it.
   */
  'epoch'?: (number | string | Long);
  'attempts'?: (number);
  'createdAt'?: (string);
  'updatedAt'?: (string);
  /**
   * JSON value given by the Resolve that finished the item; empty when none was given (or
   * the item is not finished).
   */
  'result'?: (string);
  /**
   * The last Release's message (kept after later claims); empty when none.
   */
  'message'?: (string);
  /**
   * Who holds the claim and until when (database time), while CLAIMED; empty otherwise.
   */
  'claimHolder'?: (string);
  'claimExpiresAt'?: (string);
  /**
   * Not dequeued before this time (database time): the enqueue's or the last release's delay.
   */
  'notBefore'?: (string);
}

export interface WorkItem__Output {
  'id': (string);
  'nodeUuid': (string);
  'queue': (string);
  /**
   * JSON value.
   */
  'payload': (string);
  'state': (_sfdb_v1_WorkItemState__Output);
  /**
   * Grows by one on every claim (a restore from backup moves it past every epoch issued
   * before it); later writes must present it.
   */
  'epoch': (string);
  'attempts': (number);
  'createdAt': (string);
  'updatedAt': (string);
  /**
   * JSON value given by the Resolve that finished the item; empty when none was given (or
   * the item is not finished).
   */
  'result': (string);
  /**
   * The last Release's message (kept after later claims); empty when none.
   */
  'message': (string);
  /**
   * Who holds the claim and until when (database time), while CLAIMED; empty otherwise.
   */
  'claimHolder': (string);
  'claimExpiresAt': (string);
  /**
   * Not dequeued before this time (database time): the enqueue's or the last release's delay.
   */
  'notBefore': (string);
}
