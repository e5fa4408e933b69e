// Original file: proto/sfdb/v1/objects.proto


export interface DeleteStaticObjectRequest {
  'uuid'?: (string);
}

export interface DeleteStaticObjectRequest__Output {
  'uuid': (string);
}
