// Original file: proto/sfdb/v1/ipam.proto

import type { Reservation as _sfdb_v1_Reservation, Reservation__Output as _sfdb_v1_Reservation__Output } from '../../sfdb/v1/Reservation.js';

export interface ListReservationsResponse {
  'reservations'?: (_sfdb_v1_Reservation)[];
  'nextPageToken'?: (string);
}

export interface ListReservationsResponse__Output {
  'reservations': (_sfdb_v1_Reservation__Output)[];
  'nextPageToken': (string);
}
