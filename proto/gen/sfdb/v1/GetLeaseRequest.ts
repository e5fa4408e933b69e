// Original file: proto/sfdb/v1/leases.proto


export interface GetLeaseRequest {
  'name'?: (string);
}

export interface GetLeaseRequest__Output {
  'name': (string);
}
