// Original file: proto/sfdb/v1/events.proto

import type { Event as _sfdb_v1_Event, Event__Output as _sfdb_v1_Event__Output } from '../../sfdb/v1/Event.js';

export interface ListObjectEventsResponse {
  'events'?: (_sfdb_v1_Event)[];
  'nextPageToken'?: (string);
}

export interface ListObjectEventsResponse__Output {
  'events': (_sfdb_v1_Event__Output)[];
  'nextPageToken': (string);
}
