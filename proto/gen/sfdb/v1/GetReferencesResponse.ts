// Original file: proto/sfdb/v1/references.proto

import type { Reference as _sfdb_v1_Reference, Reference__Output as _sfdb_v1_Reference__Output } from '../../sfdb/v1/Reference.js';

export interface GetReferencesResponse {
  'references'?: (_sfdb_v1_Reference)[];
}

export interface GetReferencesResponse__Output {
  'references': (_sfdb_v1_Reference__Output)[];
}
