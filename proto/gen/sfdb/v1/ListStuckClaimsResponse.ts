// Original file: proto/sfdb/v1/queue.proto

import type { Claim as _sfdb_v1_Claim, Claim__Output as _sfdb_v1_Claim__Output } from '../../sfdb/v1/Claim.js';

export interface ListStuckClaimsResponse {
  'claims'?: (_sfdb_v1_Claim)[];
}

export interface ListStuckClaimsResponse__Output {
  'claims': (_sfdb_v1_Claim__Output)[];
}
