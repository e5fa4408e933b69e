// Original file: proto/sfdb/v1/events.proto


export interface RecordEventsResponse {
  'recorded'?: (number);
}

export interface RecordEventsResponse__Output {
  'recorded': (number);
}
