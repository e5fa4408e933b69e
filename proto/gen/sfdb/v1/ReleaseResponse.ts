// Original file: proto/sfdb/v1/database.proto


export interface ReleaseResponse {
}

export interface ReleaseResponse__Output {
}
