// Original file: proto/sfdb/v1/ipam.proto


export interface GetAddressesInUseRequest {
  'ipamUuid'?: (string);
}

export interface GetAddressesInUseRequest__Output {
  'ipamUuid': (string);
}
