// Original file: proto/sfdb/v1/nodes.proto

import type { Node as _sfdb_v1_Node, Node__Output as _sfdb_v1_Node__Output } from '../../sfdb/v1/Node.js';

export interface ListNodesResponse {
  'nodes'?: (_sfdb_v1_Node)[];
  'nextPageToken'?: (string);
}

export interface ListNodesResponse__Output {
  'nodes': (_sfdb_v1_Node__Output)[];
  'nextPageToken': (string);
}
