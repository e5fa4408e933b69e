// Original file: proto/sfdb/v1/changes.proto

import type { Long } from '@grpc/proto-loader';

export interface PruneChangesResponse {
  'deleted'?: (number | string | Long);
  /**
   * Rows past the retention remain (change rows, or retired counters): call again.
   */
  'more'?: (boolean);
  /**
   * Retired counters (a deleted id's last version or claim epoch) older than the tier's
   * retired-counter retention, folded into the counter floor: every new row starts above
   * them, and their rows go.
   */
  'retiredFolded'?: (number | string | Long);
}

export interface PruneChangesResponse__Output {
  'deleted': (string);
  /**
   * Rows past the retention remain (change rows, or retired counters): call again.
   */
  'more': (boolean);
  /**
   * Retired counters (a deleted id's last version or claim epoch) older than the tier's
   * retired-counter retention, folded into the counter floor: every new row starts above
   * them, and their rows go.
   */
  'retiredFolded': (string);
}
