// Original file: proto/sfdb/v1/nodes.proto

import type { Node as _sfdb_v1_Node, Node__Output as _sfdb_v1_Node__Output } from '../../sfdb/v1/Node.js';
import type { Long } from '@grpc/proto-loader';

export interface UpdateNodeResponse {
  'node'?: (_sfdb_v1_Node | null);
  /**
   * The seq of the change this update published on static/node (0 from a tier that does
   * not say). A client cache that re-read the node after this answer skips that change
   * when the feed delivers it: its copy is this update or later.
   */
  'changeSeq'?: (number | string | Long);
}

export interface UpdateNodeResponse__Output {
  'node': (_sfdb_v1_Node__Output | null);
  /**
   * The seq of the change this update published on static/node (0 from a tier that does
   * not say). A client cache that re-read the node after this answer skips that change
   * when the feed delivers it: its copy is this update or later.
   */
  'changeSeq': (string);
}
