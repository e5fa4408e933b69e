// Original file: proto/sfdb/v1/database.proto


export interface DeleteNodeRequest {
  'uuid'?: (string);
}

export interface DeleteNodeRequest__Output {
  'uuid': (string);
}
