// Original file: proto/sfdb/v1/references.proto


export interface RemoveReferenceResponse {
  'removed'?: (boolean);
}

export interface RemoveReferenceResponse__Output {
  'removed': (boolean);
}
