// Original file: proto/sfdb/v1/objects.proto

import type { StaticObject as _sfdb_v1_StaticObject, StaticObject__Output as _sfdb_v1_StaticObject__Output } from '../../sfdb/v1/StaticObject.js';
import type { Long } from '@grpc/proto-loader';

export interface UpdateStaticObjectResponse {
  'object'?: (_sfdb_v1_StaticObject | null);
  /**
   * The seq of the change this update published on static/<type> (0 from a tier that does
   * not say). A client cache that re-read the object after this answer skips that change
   * when the feed delivers it: its copy is this update or later.
   */
  'changeSeq'?: (number | string | Long);
}

export interface UpdateStaticObjectResponse__Output {
  'object': (_sfdb_v1_StaticObject__Output | null);
  /**
   * The seq of the change this update published on static/<type> (0 from a tier that does
   * not say). A client cache that re-read the object after this answer skips that change
   * when the feed delivers it: its copy is this update or later.
   */
  'changeSeq': (string);
}
