// Original file: proto/sfdb/v1/nodes.proto


export interface ListNodesRequest {
  'pageSize'?: (number);
  'pageToken'?: (string);
}

export interface ListNodesRequest__Output {
  'pageSize': (number);
  'pageToken': (string);
}
