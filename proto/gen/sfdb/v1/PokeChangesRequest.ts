// Original file: proto/sfdb/v1/changes.proto

import type { Long } from '@grpc/proto-loader';

export interface PokeChangesRequest {
  /**
   * The sending replica: its id and the owner token of its registry row.
   */
  'replicaId'?: (string);
  'ownerToken'?: (string);
  /**
   * Both empty: an announcement (see PokeChanges); else 1..10000 of each.
   */
  'topics'?: (string)[];
  'seqs'?: (number | string | Long)[];
}

export interface PokeChangesRequest__Output {
  /**
   * The sending replica: its id and the owner token of its registry row.
   */
  'replicaId': (string);
  'ownerToken': (string);
  /**
   * Both empty: an announcement (see PokeChanges); else 1..10000 of each.
   */
  'topics': (string)[];
  'seqs': (string)[];
}
