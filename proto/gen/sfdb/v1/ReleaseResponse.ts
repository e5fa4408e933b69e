// Original file: proto/sfdb/v1/queue.proto


export interface ReleaseResponse {
}

export interface ReleaseResponse__Output {
}
