// Original file: proto/sfdb/v1/queue.proto

import type { WorkItemState as _sfdb_v1_WorkItemState, WorkItemState__Output as _sfdb_v1_WorkItemState__Output } from '../../sfdb/v1/WorkItemState.js';
import type { Long } from '@grpc/proto-loader';

export interface ResolveRequest {
  'id'?: (string);
  'epoch'?: (number | string | Long);
  /**
   * SUCCEEDED or FAILED.
   */
  'outcome'?: (_sfdb_v1_WorkItemState);
  /**
   * JSON value, optional.
   */
  'result'?: (string);
}

export interface ResolveRequest__Output {
  'id': (string);
  'epoch': (string);
  /**
   * SUCCEEDED or FAILED.
   */
  'outcome': (_sfdb_v1_WorkItemState__Output);
  /**
   * JSON value, optional.
   */
  'result': (string);
}
