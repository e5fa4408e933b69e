// Original file: proto/sfdb/v1/ipam.proto


export interface ReleaseAddressResponse {
  'released'?: (boolean);
}

export interface ReleaseAddressResponse__Output {
  'released': (boolean);
}
