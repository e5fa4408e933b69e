// Original file: proto/sfdb/v1/nodes.proto


export interface CreateNodeRequest {
  'uuid'?: (string);
  'fqdn'?: (string);
  'ipAddress'?: (string);
}

export interface CreateNodeRequest__Output {
  'uuid': (string);
  'fqdn': (string);
  'ipAddress': (string);
}
