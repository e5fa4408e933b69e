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
}
