// Original file: proto/sfdb/v1/ipam.proto


export interface ListReservationsRequest {
  'ipamUuid'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

export interface ListReservationsRequest__Output {
  'ipamUuid': (string);
  'pageSize': (number);
  'pageToken': (string);
}
