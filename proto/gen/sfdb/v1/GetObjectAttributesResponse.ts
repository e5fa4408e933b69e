// Original file: proto/sfdb/v1/database.proto


export interface GetObjectAttributesResponse {
  /**
   * key -> JSON text.
   */
  'attributes'?: ({[key: string]: string});
}

export interface GetObjectAttributesResponse__Output {
  /**
   * key -> JSON text.
   */
  'attributes': ({[key: string]: string});
}
