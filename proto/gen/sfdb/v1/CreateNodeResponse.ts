// Original file: proto/sfdb/v1/nodes.proto

import type { Node as _sfdb_v1_Node, Node__Output as _sfdb_v1_Node__Output } from '../../sfdb/v1/Node.js';

export interface CreateNodeResponse {
  'node'?: (_sfdb_v1_Node | null);
  /**
   * False when an identical node already existed (creation is idempotent).
   */
  'created'?: (boolean);
}

export interface CreateNodeResponse__Output {
  'node': (_sfdb_v1_Node__Output | null);
  /**
   * False when an identical node already existed (creation is idempotent).
   */
  'created': (boolean);
}
