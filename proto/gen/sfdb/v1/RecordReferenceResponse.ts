// Original file: proto/sfdb/v1/references.proto


export interface RecordReferenceResponse {
  'created'?: (boolean);
}

export interface RecordReferenceResponse__Output {
  'created': (boolean);
}
