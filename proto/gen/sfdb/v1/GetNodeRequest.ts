// Original file: proto/sfdb/v1/nodes.proto


export interface GetNodeRequest {
  'uuid'?: (string);
}

export interface GetNodeRequest__Output {
  'uuid': (string);
}
