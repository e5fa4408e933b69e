// Original file: proto/sfdb/v1/queue.proto


export interface ResolveResponse {
}

export interface ResolveResponse__Output {
}
