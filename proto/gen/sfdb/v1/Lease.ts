// Original file: proto/sfdb/v1/leases.proto

import type { Long } from '@grpc/proto-loader';

export interface Lease {
  'name'?: (string);
  /**
   * Empty when released.
   */
  'holder'?: (string);
  /**
   * Fencing token: grows on every change of holder, never reset (a restore from backup
   * moves it past every token issued before it).
   */
  'token'?: (number | string | Long);
  'expiresAt'?: (string);
  /**
   * Remaining time by database time at the moment of the answer (0 when expired).
   */
  'remainingMs'?: (number | string | Long);
}

export interface Lease__Output {
  'name': (string);
  /**
   * Empty when released.
   */
  'holder': (string);
  /**
   * Fencing token: grows on every change of holder, never reset (a restore from backup
   * moves it past every token issued before it).
   */
  'token': (string);
  'expiresAt': (string);
  /**
   * Remaining time by database time at the moment of the answer (0 when expired).
   */
  'remainingMs': (string);
}
