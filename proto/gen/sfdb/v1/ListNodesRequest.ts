// Original file: proto/sfdb/v1/database.proto


export interface ListNodesRequest {
  'pageSize'?: (number);
  'pageToken'?: (string);
}

export interface ListNodesRequest__Output {
  'pageSize': (number);
  'pageToken': (string);
}
