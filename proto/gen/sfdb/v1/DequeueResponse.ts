// Original file: proto/sfdb/v1/database.proto

import type { Claim as _sfdb_v1_Claim, Claim__Output as _sfdb_v1_Claim__Output } from '../../sfdb/v1/Claim.js';

export interface DequeueResponse {
  'claims'?: (_sfdb_v1_Claim)[];
}

export interface DequeueResponse__Output {
  'claims': (_sfdb_v1_Claim__Output)[];
}
