// Original file: proto/sfdb/v1/changes.proto


export interface PokeChangesResponse {
}

export interface PokeChangesResponse__Output {
}
