// Original file: proto/sfdb/v1/ipam.proto

import type { ObjectType as _sfdb_v1_ObjectType, ObjectType__Output as _sfdb_v1_ObjectType__Output } from '../../sfdb/v1/ObjectType.js';

export interface Reservation {
  'ipamUuid'?: (string);
  'address'?: (string);
  'ownerType'?: (_sfdb_v1_ObjectType);
  'ownerUuid'?: (string);
  'reservedAt'?: (string);
}

export interface Reservation__Output {
  'ipamUuid': (string);
  'address': (string);
  'ownerType': (_sfdb_v1_ObjectType__Output);
  'ownerUuid': (string);
  'reservedAt': (string);
}
