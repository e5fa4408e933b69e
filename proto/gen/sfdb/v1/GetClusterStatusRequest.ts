// Original file: proto/sfdb/v1/database.proto


export interface GetClusterStatusRequest {
}

export interface GetClusterStatusRequest__Output {
}
