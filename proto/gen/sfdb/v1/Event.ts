// Original file: proto/sfdb/v1/events.proto

import type { ObjectType as _sfdb_v1_ObjectType, ObjectType__Output as _sfdb_v1_ObjectType__Output } from '../../sfdb/v1/ObjectType.js';
import type { Long } from '@grpc/proto-loader';

export interface Event {
  'id'?: (number | string | Long);
  'objectType'?: (_sfdb_v1_ObjectType);
  'objectUuid'?: (string);
  'eventType'?: (string);
  'message'?: (string);
  'extra'?: (string);
  'recordedAt'?: (string);
}

export interface Event__Output {
  'id': (string);
  'objectType': (_sfdb_v1_ObjectType__Output);
  'objectUuid': (string);
  'eventType': (string);
  'message': (string);
  'extra': (string);
  'recordedAt': (string);
}
