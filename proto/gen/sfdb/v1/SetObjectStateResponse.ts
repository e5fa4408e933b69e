// Original file: proto/sfdb/v1/objects.proto

import type { ObjectStateRecord as _sfdb_v1_ObjectStateRecord, ObjectStateRecord__Output as _sfdb_v1_ObjectStateRecord__Output } from '../../sfdb/v1/ObjectStateRecord.js';

export interface SetObjectStateResponse {
  'state'?: (_sfdb_v1_ObjectStateRecord | null);
}

export interface SetObjectStateResponse__Output {
  'state': (_sfdb_v1_ObjectStateRecord__Output | null);
}
