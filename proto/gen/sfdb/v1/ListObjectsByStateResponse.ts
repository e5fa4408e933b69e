// Original file: proto/sfdb/v1/objects.proto

import type { ObjectStateRecord as _sfdb_v1_ObjectStateRecord, ObjectStateRecord__Output as _sfdb_v1_ObjectStateRecord__Output } from '../../sfdb/v1/ObjectStateRecord.js';

export interface ListObjectsByStateResponse {
  'states'?: (_sfdb_v1_ObjectStateRecord)[];
  'nextPageToken'?: (string);
}

export interface ListObjectsByStateResponse__Output {
  'states': (_sfdb_v1_ObjectStateRecord__Output)[];
  'nextPageToken': (string);
}
