// Original file: proto/sfdb/v1/leases.proto


export interface ReleaseLeaseResponse {
  'released'?: (boolean);
}

export interface ReleaseLeaseResponse__Output {
  'released': (boolean);
}
