// Original file: proto/sfdb/v1/database.proto


export interface ListStuckClaimsRequest {
  'limit'?: (number);
}

export interface ListStuckClaimsRequest__Output {
  'limit': (number);
}
