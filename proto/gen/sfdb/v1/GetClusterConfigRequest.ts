// Original file: proto/sfdb/v1/cluster_config.proto


export interface GetClusterConfigRequest {
  'key'?: (string);
}

export interface GetClusterConfigRequest__Output {
  'key': (string);
}
