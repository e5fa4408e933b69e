// Original file: proto/sfdb/v1/nodes.proto


export interface GetNodeByFqdnRequest {
  'fqdn'?: (string);
}

export interface GetNodeByFqdnRequest__Output {
  'fqdn': (string);
}
