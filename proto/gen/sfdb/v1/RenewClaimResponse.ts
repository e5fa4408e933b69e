// Original file: proto/sfdb/v1/queue.proto


export interface RenewClaimResponse {
  'leaseExpiresAt'?: (string);
}

export interface RenewClaimResponse__Output {
  'leaseExpiresAt': (string);
}
