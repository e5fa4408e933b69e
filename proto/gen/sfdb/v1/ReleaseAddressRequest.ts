// Original file: proto/sfdb/v1/ipam.proto

import type { LeaseFence as _sfdb_v1_LeaseFence, LeaseFence__Output as _sfdb_v1_LeaseFence__Output } from '../../sfdb/v1/LeaseFence.js';

export interface ReleaseAddressRequest {
  'ipamUuid'?: (string);
  'address'?: (string);
  /**
   * When set, only released if held by this owner (else Conflict).
   */
  'ownerUuid'?: (string);
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence'?: (_sfdb_v1_LeaseFence | null);
}

export interface ReleaseAddressRequest__Output {
  'ipamUuid': (string);
  'address': (string);
  /**
   * When set, only released if held by this owner (else Conflict).
   */
  'ownerUuid': (string);
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence': (_sfdb_v1_LeaseFence__Output | null);
}
