// Original file: proto/sfdb/v1/leases.proto


export interface ListLeasesRequest {
  /**
   * Only leases whose name starts with this.
   */
  'prefix'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

export interface ListLeasesRequest__Output {
  /**
   * Only leases whose name starts with this.
   */
  'prefix': (string);
  'pageSize': (number);
  'pageToken': (string);
}
