// Original file: proto/sfdb/v1/objects.proto


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
