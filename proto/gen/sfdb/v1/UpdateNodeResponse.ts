// Original file: proto/sfdb/v1/database.proto

import type { Node as _sfdb_v1_Node, Node__Output as _sfdb_v1_Node__Output } from '../../sfdb/v1/Node.js';

export interface UpdateNodeResponse {
  'node'?: (_sfdb_v1_Node | null);
}

export interface UpdateNodeResponse__Output {
  'node': (_sfdb_v1_Node__Output | null);
}
