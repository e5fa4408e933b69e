// Original file: proto/sfdb/v1/objects.proto


export interface SetObjectAttributesResponse {
  'written'?: (number);
}

export interface SetObjectAttributesResponse__Output {
  'written': (number);
}
