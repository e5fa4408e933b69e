// Original file: proto/sfdb/v1/objects.proto


export interface CreateStaticObjectRequest {
  /**
   * Chosen by the client: creation is idempotent.
   */
  'uuid'?: (string);
  'namespace'?: (string);
  'nodeUuid'?: (string);
  'staticValues'?: (string);
  /**
   * Top-level keys of static_values that hold secrets (at most 16, each a key present).
   */
  'secretFields'?: (string)[];
}

export interface CreateStaticObjectRequest__Output {
  /**
   * Chosen by the client: creation is idempotent.
   */
  'uuid': (string);
  'namespace': (string);
  'nodeUuid': (string);
  'staticValues': (string);
  /**
   * Top-level keys of static_values that hold secrets (at most 16, each a key present).
   */
  'secretFields': (string)[];
}
