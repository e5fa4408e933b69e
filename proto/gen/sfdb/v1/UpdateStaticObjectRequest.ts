// Original file: proto/sfdb/v1/objects.proto

import type { Long } from '@grpc/proto-loader';

export interface UpdateStaticObjectRequest {
  'uuid'?: (string);
  'staticValues'?: (string);
  /**
   * When non-zero, the update happens only at this version (else Conflict).
   */
  'expectedVersion'?: (number | string | Long);
  /**
   * The secret keys of the new static values (replaces the old list).
   */
  'secretFields'?: (string)[];
}

export interface UpdateStaticObjectRequest__Output {
  'uuid': (string);
  'staticValues': (string);
  /**
   * When non-zero, the update happens only at this version (else Conflict).
   */
  'expectedVersion': (string);
  /**
   * The secret keys of the new static values (replaces the old list).
   */
  'secretFields': (string)[];
}
