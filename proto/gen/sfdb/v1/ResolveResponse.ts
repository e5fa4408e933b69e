// Original file: proto/sfdb/v1/database.proto


export interface ResolveResponse {
}

export interface ResolveResponse__Output {
}
