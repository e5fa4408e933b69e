// Original file: proto/sfdb/v1/queue.proto


export interface GetQueueLengthRequest {
  'nodeUuid'?: (string);
  'queue'?: (string);
}

export interface GetQueueLengthRequest__Output {
  'nodeUuid': (string);
  'queue': (string);
}
