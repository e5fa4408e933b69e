// Original file: proto/sfdb/v1/database.proto


export interface SetObjectAttributesResponse {
  'written'?: (number);
}

export interface SetObjectAttributesResponse__Output {
  'written': (number);
}
