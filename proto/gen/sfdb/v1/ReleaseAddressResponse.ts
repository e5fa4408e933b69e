// Original file: proto/sfdb/v1/database.proto


export interface ReleaseAddressResponse {
  'released'?: (boolean);
}

export interface ReleaseAddressResponse__Output {
  'released': (boolean);
}
