// Original file: proto/sfdb/v1/database.proto


export interface PokeChangesResponse {
}

export interface PokeChangesResponse__Output {
}
