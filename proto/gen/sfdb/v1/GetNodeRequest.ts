// Original file: proto/sfdb/v1/database.proto


export interface GetNodeRequest {
  'uuid'?: (string);
}

export interface GetNodeRequest__Output {
  'uuid': (string);
}
