// Original file: proto/sfdb/v1/nodes.proto

import type { Node as _sfdb_v1_Node, Node__Output as _sfdb_v1_Node__Output } from '../../sfdb/v1/Node.js';

export interface GetNodeResponse {
  'found'?: (boolean);
  'node'?: (_sfdb_v1_Node | null);
}

export interface GetNodeResponse__Output {
  'found': (boolean);
  'node': (_sfdb_v1_Node__Output | null);
}
