// Original file: proto/sfdb/v1/database.proto


export interface GetClusterConfigRequest {
  'key'?: (string);
}

export interface GetClusterConfigRequest__Output {
  'key': (string);
}
