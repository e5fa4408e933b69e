// Original file: proto/sfdb/v1/ipam.proto


export interface ReleaseAddressRequest {
  'ipamUuid'?: (string);
  'address'?: (string);
  /**
   * When set, only released if held by this owner (else Conflict).
   */
  'ownerUuid'?: (string);
}

export interface ReleaseAddressRequest__Output {
  'ipamUuid': (string);
  'address': (string);
  /**
   * When set, only released if held by this owner (else Conflict).
   */
  'ownerUuid': (string);
}
