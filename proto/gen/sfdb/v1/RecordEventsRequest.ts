// Original file: proto/sfdb/v1/events.proto

import type { EventInput as _sfdb_v1_EventInput, EventInput__Output as _sfdb_v1_EventInput__Output } from '../../sfdb/v1/EventInput.js';

export interface RecordEventsRequest {
  'events'?: (_sfdb_v1_EventInput)[];
}

export interface RecordEventsRequest__Output {
  'events': (_sfdb_v1_EventInput__Output)[];
}
