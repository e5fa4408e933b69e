// Original file: proto/sfdb/v1/objects.proto


export interface ListStaticObjectsRequest {
  /**
   * Scope: a namespace, a node, or both; empty lists the whole type.
   */
  'namespace'?: (string);
  'nodeUuid'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

export interface ListStaticObjectsRequest__Output {
  /**
   * Scope: a namespace, a node, or both; empty lists the whole type.
   */
  'namespace': (string);
  'nodeUuid': (string);
  'pageSize': (number);
  'pageToken': (string);
}
