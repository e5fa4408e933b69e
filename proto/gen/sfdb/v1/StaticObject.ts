// Original file: proto/sfdb/v1/objects.proto

import type { Long } from '@grpc/proto-loader';

export interface StaticObject {
  'uuid'?: (string);
  'namespace'?: (string);
  /**
   * The node the object is placed on; empty when the type has no placement.
   */
  'nodeUuid'?: (string);
  /**
   * Incremented on every update (upgradeable types only).
   */
  'version'?: (number | string | Long);
  /**
   * JSON object of the type's static values.
   */
  'staticValues'?: (string);
  'createdAt'?: (string);
  'updatedAt'?: (string);
  /**
   * Top-level keys of static_values that hold secrets: a client never caches the object.
   */
  'secretFields'?: (string)[];
}

export interface StaticObject__Output {
  'uuid': (string);
  'namespace': (string);
  /**
   * The node the object is placed on; empty when the type has no placement.
   */
  'nodeUuid': (string);
  /**
   * Incremented on every update (upgradeable types only).
   */
  'version': (string);
  /**
   * JSON object of the type's static values.
   */
  'staticValues': (string);
  'createdAt': (string);
  'updatedAt': (string);
  /**
   * Top-level keys of static_values that hold secrets: a client never caches the object.
   */
  'secretFields': (string)[];
}
