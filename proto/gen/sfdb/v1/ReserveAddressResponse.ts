// Original file: proto/sfdb/v1/ipam.proto

import type { Reservation as _sfdb_v1_Reservation, Reservation__Output as _sfdb_v1_Reservation__Output } from '../../sfdb/v1/Reservation.js';

export interface ReserveAddressResponse {
  'reservation'?: (_sfdb_v1_Reservation | null);
  /**
   * False when this owner already held it (reservation is idempotent).
   */
  'created'?: (boolean);
}

export interface ReserveAddressResponse__Output {
  'reservation': (_sfdb_v1_Reservation__Output | null);
  /**
   * False when this owner already held it (reservation is idempotent).
   */
  'created': (boolean);
}
