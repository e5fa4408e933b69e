// Original file: proto/sfdb/v1/changes.proto

import type { Interest as _sfdb_v1_Interest, Interest__Output as _sfdb_v1_Interest__Output } from '../../sfdb/v1/Interest.js';

export interface WaitForChangesRequest {
  /**
   * 1..64 topics.
   */
  'topics'?: (string)[];
  /**
   * From the previous answer; empty: answer at once with the current cursor.
   */
  'cursor'?: (string);
  /**
   * How long to hold when nothing has changed: 0..30000 ms (0 means 30000).
   */
  'timeoutMs'?: (number);
  /**
   * Optional: what the caller holds, so that a change it does not hold does not wake it.
   * Narrows only the waking, never the answer: whenever the long-poll is answered (a
   * change it holds, a change on another topic, the timeout), every change past the
   * cursor on all `topics` is in it.
   */
  'interest'?: (_sfdb_v1_Interest | null);
  /**
   * Optional: topics on which a CHANGE_REPORTED change does not wake this long-poll (a
   * daemon waiting on its own state topic knows what it reported); each one also in
   * `topics`. Narrows only the waking, as `interest` does: a report past the cursor is in
   * whatever answer comes next, and a report never hides an earlier change of another
   * kind to the same object.
   */
  'quietReports'?: (string)[];
}

export interface WaitForChangesRequest__Output {
  /**
   * 1..64 topics.
   */
  'topics': (string)[];
  /**
   * From the previous answer; empty: answer at once with the current cursor.
   */
  'cursor': (string);
  /**
   * How long to hold when nothing has changed: 0..30000 ms (0 means 30000).
   */
  'timeoutMs': (number);
  /**
   * Optional: what the caller holds, so that a change it does not hold does not wake it.
   * Narrows only the waking, never the answer: whenever the long-poll is answered (a
   * change it holds, a change on another topic, the timeout), every change past the
   * cursor on all `topics` is in it.
   */
  'interest': (_sfdb_v1_Interest__Output | null);
  /**
   * Optional: topics on which a CHANGE_REPORTED change does not wake this long-poll (a
   * daemon waiting on its own state topic knows what it reported); each one also in
   * `topics`. Narrows only the waking, as `interest` does: a report past the cursor is in
   * whatever answer comes next, and a report never hides an earlier change of another
   * kind to the same object.
   */
  'quietReports': (string)[];
}
