// Original file: proto/sfdb/v1/database.proto


export interface RecordReferenceResponse {
  'created'?: (boolean);
}

export interface RecordReferenceResponse__Output {
  'created': (boolean);
}
