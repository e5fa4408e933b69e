// Original file: proto/sfdb/v1/events.proto

import type { ObjectType as _sfdb_v1_ObjectType, ObjectType__Output as _sfdb_v1_ObjectType__Output } from '../../sfdb/v1/ObjectType.js';

export interface ListObjectEventsRequest {
  'objectType'?: (_sfdb_v1_ObjectType);
  'objectUuid'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

export interface ListObjectEventsRequest__Output {
  'objectType': (_sfdb_v1_ObjectType__Output);
  'objectUuid': (string);
  'pageSize': (number);
  'pageToken': (string);
}
