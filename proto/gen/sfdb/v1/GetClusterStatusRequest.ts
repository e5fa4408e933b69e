// Original file: proto/sfdb/v1/nodes.proto


export interface GetClusterStatusRequest {
}

export interface GetClusterStatusRequest__Output {
}
