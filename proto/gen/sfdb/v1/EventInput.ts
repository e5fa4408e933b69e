// Original file: proto/sfdb/v1/events.proto

import type { ObjectType as _sfdb_v1_ObjectType, ObjectType__Output as _sfdb_v1_ObjectType__Output } from '../../sfdb/v1/ObjectType.js';

export interface EventInput {
  'objectType'?: (_sfdb_v1_ObjectType);
  'objectUuid'?: (string);
  'eventType'?: (string);
  'message'?: (string);
  /**
   * JSON object, optional.
   */
  'extra'?: (string);
}

export interface EventInput__Output {
  'objectType': (_sfdb_v1_ObjectType__Output);
  'objectUuid': (string);
  'eventType': (string);
  'message': (string);
  /**
   * JSON object, optional.
   */
  'extra': (string);
}
