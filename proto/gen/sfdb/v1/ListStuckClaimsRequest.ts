// Original file: proto/sfdb/v1/queue.proto


export interface ListStuckClaimsRequest {
  'limit'?: (number);
}

export interface ListStuckClaimsRequest__Output {
  'limit': (number);
}
