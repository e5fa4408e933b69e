// Original file: proto/sfdb/v1/ipam.proto


export interface GetAddressesInUseResponse {
  'addresses'?: (string)[];
}

export interface GetAddressesInUseResponse__Output {
  'addresses': (string)[];
}
