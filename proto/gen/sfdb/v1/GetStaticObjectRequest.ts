// Original file: proto/sfdb/v1/objects.proto


export interface GetStaticObjectRequest {
  'uuid'?: (string);
}

export interface GetStaticObjectRequest__Output {
  'uuid': (string);
}
