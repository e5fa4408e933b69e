// Original file: proto/sfdb/v1/database.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AcquireLeaseRequest as _sfdb_v1_AcquireLeaseRequest, AcquireLeaseRequest__Output as _sfdb_v1_AcquireLeaseRequest__Output } from '../../sfdb/v1/AcquireLeaseRequest.js';
import type { AcquireLeaseResponse as _sfdb_v1_AcquireLeaseResponse, AcquireLeaseResponse__Output as _sfdb_v1_AcquireLeaseResponse__Output } from '../../sfdb/v1/AcquireLeaseResponse.js';
import type { CreateBlobTransferRequest as _sfdb_v1_CreateBlobTransferRequest, CreateBlobTransferRequest__Output as _sfdb_v1_CreateBlobTransferRequest__Output } from '../../sfdb/v1/CreateBlobTransferRequest.js';
import type { CreateBlobTransferResponse as _sfdb_v1_CreateBlobTransferResponse, CreateBlobTransferResponse__Output as _sfdb_v1_CreateBlobTransferResponse__Output } from '../../sfdb/v1/CreateBlobTransferResponse.js';
import type { CreateNodeRequest as _sfdb_v1_CreateNodeRequest, CreateNodeRequest__Output as _sfdb_v1_CreateNodeRequest__Output } from '../../sfdb/v1/CreateNodeRequest.js';
import type { CreateNodeResponse as _sfdb_v1_CreateNodeResponse, CreateNodeResponse__Output as _sfdb_v1_CreateNodeResponse__Output } from '../../sfdb/v1/CreateNodeResponse.js';
import type { CreateStaticObjectRequest as _sfdb_v1_CreateStaticObjectRequest, CreateStaticObjectRequest__Output as _sfdb_v1_CreateStaticObjectRequest__Output } from '../../sfdb/v1/CreateStaticObjectRequest.js';
import type { CreateStaticObjectResponse as _sfdb_v1_CreateStaticObjectResponse, CreateStaticObjectResponse__Output as _sfdb_v1_CreateStaticObjectResponse__Output } from '../../sfdb/v1/CreateStaticObjectResponse.js';
import type { DeleteNodeRequest as _sfdb_v1_DeleteNodeRequest, DeleteNodeRequest__Output as _sfdb_v1_DeleteNodeRequest__Output } from '../../sfdb/v1/DeleteNodeRequest.js';
import type { DeleteObjectAttributesRequest as _sfdb_v1_DeleteObjectAttributesRequest, DeleteObjectAttributesRequest__Output as _sfdb_v1_DeleteObjectAttributesRequest__Output } from '../../sfdb/v1/DeleteObjectAttributesRequest.js';
import type { DeleteObjectStateRequest as _sfdb_v1_DeleteObjectStateRequest, DeleteObjectStateRequest__Output as _sfdb_v1_DeleteObjectStateRequest__Output } from '../../sfdb/v1/DeleteObjectStateRequest.js';
import type { DeleteResponse as _sfdb_v1_DeleteResponse, DeleteResponse__Output as _sfdb_v1_DeleteResponse__Output } from '../../sfdb/v1/DeleteResponse.js';
import type { DeleteStaticObjectRequest as _sfdb_v1_DeleteStaticObjectRequest, DeleteStaticObjectRequest__Output as _sfdb_v1_DeleteStaticObjectRequest__Output } from '../../sfdb/v1/DeleteStaticObjectRequest.js';
import type { DequeueRequest as _sfdb_v1_DequeueRequest, DequeueRequest__Output as _sfdb_v1_DequeueRequest__Output } from '../../sfdb/v1/DequeueRequest.js';
import type { DequeueResponse as _sfdb_v1_DequeueResponse, DequeueResponse__Output as _sfdb_v1_DequeueResponse__Output } from '../../sfdb/v1/DequeueResponse.js';
import type { EnqueueRequest as _sfdb_v1_EnqueueRequest, EnqueueRequest__Output as _sfdb_v1_EnqueueRequest__Output } from '../../sfdb/v1/EnqueueRequest.js';
import type { EnqueueResponse as _sfdb_v1_EnqueueResponse, EnqueueResponse__Output as _sfdb_v1_EnqueueResponse__Output } from '../../sfdb/v1/EnqueueResponse.js';
import type { GetAddressesInUseRequest as _sfdb_v1_GetAddressesInUseRequest, GetAddressesInUseRequest__Output as _sfdb_v1_GetAddressesInUseRequest__Output } from '../../sfdb/v1/GetAddressesInUseRequest.js';
import type { GetAddressesInUseResponse as _sfdb_v1_GetAddressesInUseResponse, GetAddressesInUseResponse__Output as _sfdb_v1_GetAddressesInUseResponse__Output } from '../../sfdb/v1/GetAddressesInUseResponse.js';
import type { GetBlobTransfersForNodeRequest as _sfdb_v1_GetBlobTransfersForNodeRequest, GetBlobTransfersForNodeRequest__Output as _sfdb_v1_GetBlobTransfersForNodeRequest__Output } from '../../sfdb/v1/GetBlobTransfersForNodeRequest.js';
import type { GetBlobTransfersForNodeResponse as _sfdb_v1_GetBlobTransfersForNodeResponse, GetBlobTransfersForNodeResponse__Output as _sfdb_v1_GetBlobTransfersForNodeResponse__Output } from '../../sfdb/v1/GetBlobTransfersForNodeResponse.js';
import type { GetChangesSinceRequest as _sfdb_v1_GetChangesSinceRequest, GetChangesSinceRequest__Output as _sfdb_v1_GetChangesSinceRequest__Output } from '../../sfdb/v1/GetChangesSinceRequest.js';
import type { GetChangesSinceResponse as _sfdb_v1_GetChangesSinceResponse, GetChangesSinceResponse__Output as _sfdb_v1_GetChangesSinceResponse__Output } from '../../sfdb/v1/GetChangesSinceResponse.js';
import type { GetClusterConfigRequest as _sfdb_v1_GetClusterConfigRequest, GetClusterConfigRequest__Output as _sfdb_v1_GetClusterConfigRequest__Output } from '../../sfdb/v1/GetClusterConfigRequest.js';
import type { GetClusterConfigResponse as _sfdb_v1_GetClusterConfigResponse, GetClusterConfigResponse__Output as _sfdb_v1_GetClusterConfigResponse__Output } from '../../sfdb/v1/GetClusterConfigResponse.js';
import type { GetClusterStatusRequest as _sfdb_v1_GetClusterStatusRequest, GetClusterStatusRequest__Output as _sfdb_v1_GetClusterStatusRequest__Output } from '../../sfdb/v1/GetClusterStatusRequest.js';
import type { GetClusterStatusResponse as _sfdb_v1_GetClusterStatusResponse, GetClusterStatusResponse__Output as _sfdb_v1_GetClusterStatusResponse__Output } from '../../sfdb/v1/GetClusterStatusResponse.js';
import type { GetLeaseRequest as _sfdb_v1_GetLeaseRequest, GetLeaseRequest__Output as _sfdb_v1_GetLeaseRequest__Output } from '../../sfdb/v1/GetLeaseRequest.js';
import type { GetLeaseResponse as _sfdb_v1_GetLeaseResponse, GetLeaseResponse__Output as _sfdb_v1_GetLeaseResponse__Output } from '../../sfdb/v1/GetLeaseResponse.js';
import type { GetNodeByFqdnRequest as _sfdb_v1_GetNodeByFqdnRequest, GetNodeByFqdnRequest__Output as _sfdb_v1_GetNodeByFqdnRequest__Output } from '../../sfdb/v1/GetNodeByFqdnRequest.js';
import type { GetNodeDaemonStateRequest as _sfdb_v1_GetNodeDaemonStateRequest, GetNodeDaemonStateRequest__Output as _sfdb_v1_GetNodeDaemonStateRequest__Output } from '../../sfdb/v1/GetNodeDaemonStateRequest.js';
import type { GetNodeDaemonStateResponse as _sfdb_v1_GetNodeDaemonStateResponse, GetNodeDaemonStateResponse__Output as _sfdb_v1_GetNodeDaemonStateResponse__Output } from '../../sfdb/v1/GetNodeDaemonStateResponse.js';
import type { GetNodeRequest as _sfdb_v1_GetNodeRequest, GetNodeRequest__Output as _sfdb_v1_GetNodeRequest__Output } from '../../sfdb/v1/GetNodeRequest.js';
import type { GetNodeResponse as _sfdb_v1_GetNodeResponse, GetNodeResponse__Output as _sfdb_v1_GetNodeResponse__Output } from '../../sfdb/v1/GetNodeResponse.js';
import type { GetObjectAttributesRequest as _sfdb_v1_GetObjectAttributesRequest, GetObjectAttributesRequest__Output as _sfdb_v1_GetObjectAttributesRequest__Output } from '../../sfdb/v1/GetObjectAttributesRequest.js';
import type { GetObjectAttributesResponse as _sfdb_v1_GetObjectAttributesResponse, GetObjectAttributesResponse__Output as _sfdb_v1_GetObjectAttributesResponse__Output } from '../../sfdb/v1/GetObjectAttributesResponse.js';
import type { GetObjectStateRequest as _sfdb_v1_GetObjectStateRequest, GetObjectStateRequest__Output as _sfdb_v1_GetObjectStateRequest__Output } from '../../sfdb/v1/GetObjectStateRequest.js';
import type { GetObjectStateResponse as _sfdb_v1_GetObjectStateResponse, GetObjectStateResponse__Output as _sfdb_v1_GetObjectStateResponse__Output } from '../../sfdb/v1/GetObjectStateResponse.js';
import type { GetQueueLengthRequest as _sfdb_v1_GetQueueLengthRequest, GetQueueLengthRequest__Output as _sfdb_v1_GetQueueLengthRequest__Output } from '../../sfdb/v1/GetQueueLengthRequest.js';
import type { GetQueueLengthResponse as _sfdb_v1_GetQueueLengthResponse, GetQueueLengthResponse__Output as _sfdb_v1_GetQueueLengthResponse__Output } from '../../sfdb/v1/GetQueueLengthResponse.js';
import type { GetReferencesFromRequest as _sfdb_v1_GetReferencesFromRequest, GetReferencesFromRequest__Output as _sfdb_v1_GetReferencesFromRequest__Output } from '../../sfdb/v1/GetReferencesFromRequest.js';
import type { GetReferencesResponse as _sfdb_v1_GetReferencesResponse, GetReferencesResponse__Output as _sfdb_v1_GetReferencesResponse__Output } from '../../sfdb/v1/GetReferencesResponse.js';
import type { GetReferencesToRequest as _sfdb_v1_GetReferencesToRequest, GetReferencesToRequest__Output as _sfdb_v1_GetReferencesToRequest__Output } from '../../sfdb/v1/GetReferencesToRequest.js';
import type { GetStaticObjectRequest as _sfdb_v1_GetStaticObjectRequest, GetStaticObjectRequest__Output as _sfdb_v1_GetStaticObjectRequest__Output } from '../../sfdb/v1/GetStaticObjectRequest.js';
import type { GetStaticObjectResponse as _sfdb_v1_GetStaticObjectResponse, GetStaticObjectResponse__Output as _sfdb_v1_GetStaticObjectResponse__Output } from '../../sfdb/v1/GetStaticObjectResponse.js';
import type { GetWorkItemRequest as _sfdb_v1_GetWorkItemRequest, GetWorkItemRequest__Output as _sfdb_v1_GetWorkItemRequest__Output } from '../../sfdb/v1/GetWorkItemRequest.js';
import type { GetWorkItemResponse as _sfdb_v1_GetWorkItemResponse, GetWorkItemResponse__Output as _sfdb_v1_GetWorkItemResponse__Output } from '../../sfdb/v1/GetWorkItemResponse.js';
import type { ListLeasesRequest as _sfdb_v1_ListLeasesRequest, ListLeasesRequest__Output as _sfdb_v1_ListLeasesRequest__Output } from '../../sfdb/v1/ListLeasesRequest.js';
import type { ListLeasesResponse as _sfdb_v1_ListLeasesResponse, ListLeasesResponse__Output as _sfdb_v1_ListLeasesResponse__Output } from '../../sfdb/v1/ListLeasesResponse.js';
import type { ListNodeDaemonStatesRequest as _sfdb_v1_ListNodeDaemonStatesRequest, ListNodeDaemonStatesRequest__Output as _sfdb_v1_ListNodeDaemonStatesRequest__Output } from '../../sfdb/v1/ListNodeDaemonStatesRequest.js';
import type { ListNodeDaemonStatesResponse as _sfdb_v1_ListNodeDaemonStatesResponse, ListNodeDaemonStatesResponse__Output as _sfdb_v1_ListNodeDaemonStatesResponse__Output } from '../../sfdb/v1/ListNodeDaemonStatesResponse.js';
import type { ListNodesRequest as _sfdb_v1_ListNodesRequest, ListNodesRequest__Output as _sfdb_v1_ListNodesRequest__Output } from '../../sfdb/v1/ListNodesRequest.js';
import type { ListNodesResponse as _sfdb_v1_ListNodesResponse, ListNodesResponse__Output as _sfdb_v1_ListNodesResponse__Output } from '../../sfdb/v1/ListNodesResponse.js';
import type { ListObjectEventsRequest as _sfdb_v1_ListObjectEventsRequest, ListObjectEventsRequest__Output as _sfdb_v1_ListObjectEventsRequest__Output } from '../../sfdb/v1/ListObjectEventsRequest.js';
import type { ListObjectEventsResponse as _sfdb_v1_ListObjectEventsResponse, ListObjectEventsResponse__Output as _sfdb_v1_ListObjectEventsResponse__Output } from '../../sfdb/v1/ListObjectEventsResponse.js';
import type { ListObjectsByStateRequest as _sfdb_v1_ListObjectsByStateRequest, ListObjectsByStateRequest__Output as _sfdb_v1_ListObjectsByStateRequest__Output } from '../../sfdb/v1/ListObjectsByStateRequest.js';
import type { ListObjectsByStateResponse as _sfdb_v1_ListObjectsByStateResponse, ListObjectsByStateResponse__Output as _sfdb_v1_ListObjectsByStateResponse__Output } from '../../sfdb/v1/ListObjectsByStateResponse.js';
import type { ListReservationsRequest as _sfdb_v1_ListReservationsRequest, ListReservationsRequest__Output as _sfdb_v1_ListReservationsRequest__Output } from '../../sfdb/v1/ListReservationsRequest.js';
import type { ListReservationsResponse as _sfdb_v1_ListReservationsResponse, ListReservationsResponse__Output as _sfdb_v1_ListReservationsResponse__Output } from '../../sfdb/v1/ListReservationsResponse.js';
import type { ListStaticObjectsRequest as _sfdb_v1_ListStaticObjectsRequest, ListStaticObjectsRequest__Output as _sfdb_v1_ListStaticObjectsRequest__Output } from '../../sfdb/v1/ListStaticObjectsRequest.js';
import type { ListStaticObjectsResponse as _sfdb_v1_ListStaticObjectsResponse, ListStaticObjectsResponse__Output as _sfdb_v1_ListStaticObjectsResponse__Output } from '../../sfdb/v1/ListStaticObjectsResponse.js';
import type { ListStuckClaimsRequest as _sfdb_v1_ListStuckClaimsRequest, ListStuckClaimsRequest__Output as _sfdb_v1_ListStuckClaimsRequest__Output } from '../../sfdb/v1/ListStuckClaimsRequest.js';
import type { ListStuckClaimsResponse as _sfdb_v1_ListStuckClaimsResponse, ListStuckClaimsResponse__Output as _sfdb_v1_ListStuckClaimsResponse__Output } from '../../sfdb/v1/ListStuckClaimsResponse.js';
import type { ListWorkItemsRequest as _sfdb_v1_ListWorkItemsRequest, ListWorkItemsRequest__Output as _sfdb_v1_ListWorkItemsRequest__Output } from '../../sfdb/v1/ListWorkItemsRequest.js';
import type { ListWorkItemsResponse as _sfdb_v1_ListWorkItemsResponse, ListWorkItemsResponse__Output as _sfdb_v1_ListWorkItemsResponse__Output } from '../../sfdb/v1/ListWorkItemsResponse.js';
import type { NodeHeartbeatRequest as _sfdb_v1_NodeHeartbeatRequest, NodeHeartbeatRequest__Output as _sfdb_v1_NodeHeartbeatRequest__Output } from '../../sfdb/v1/NodeHeartbeatRequest.js';
import type { NodeHeartbeatResponse as _sfdb_v1_NodeHeartbeatResponse, NodeHeartbeatResponse__Output as _sfdb_v1_NodeHeartbeatResponse__Output } from '../../sfdb/v1/NodeHeartbeatResponse.js';
import type { PokeChangesRequest as _sfdb_v1_PokeChangesRequest, PokeChangesRequest__Output as _sfdb_v1_PokeChangesRequest__Output } from '../../sfdb/v1/PokeChangesRequest.js';
import type { PokeChangesResponse as _sfdb_v1_PokeChangesResponse, PokeChangesResponse__Output as _sfdb_v1_PokeChangesResponse__Output } from '../../sfdb/v1/PokeChangesResponse.js';
import type { PruneChangesRequest as _sfdb_v1_PruneChangesRequest, PruneChangesRequest__Output as _sfdb_v1_PruneChangesRequest__Output } from '../../sfdb/v1/PruneChangesRequest.js';
import type { PruneChangesResponse as _sfdb_v1_PruneChangesResponse, PruneChangesResponse__Output as _sfdb_v1_PruneChangesResponse__Output } from '../../sfdb/v1/PruneChangesResponse.js';
import type { PruneEventsRequest as _sfdb_v1_PruneEventsRequest, PruneEventsRequest__Output as _sfdb_v1_PruneEventsRequest__Output } from '../../sfdb/v1/PruneEventsRequest.js';
import type { PruneEventsResponse as _sfdb_v1_PruneEventsResponse, PruneEventsResponse__Output as _sfdb_v1_PruneEventsResponse__Output } from '../../sfdb/v1/PruneEventsResponse.js';
import type { RecordEventsRequest as _sfdb_v1_RecordEventsRequest, RecordEventsRequest__Output as _sfdb_v1_RecordEventsRequest__Output } from '../../sfdb/v1/RecordEventsRequest.js';
import type { RecordEventsResponse as _sfdb_v1_RecordEventsResponse, RecordEventsResponse__Output as _sfdb_v1_RecordEventsResponse__Output } from '../../sfdb/v1/RecordEventsResponse.js';
import type { RecordReferenceRequest as _sfdb_v1_RecordReferenceRequest, RecordReferenceRequest__Output as _sfdb_v1_RecordReferenceRequest__Output } from '../../sfdb/v1/RecordReferenceRequest.js';
import type { RecordReferenceResponse as _sfdb_v1_RecordReferenceResponse, RecordReferenceResponse__Output as _sfdb_v1_RecordReferenceResponse__Output } from '../../sfdb/v1/RecordReferenceResponse.js';
import type { ReleaseAddressRequest as _sfdb_v1_ReleaseAddressRequest, ReleaseAddressRequest__Output as _sfdb_v1_ReleaseAddressRequest__Output } from '../../sfdb/v1/ReleaseAddressRequest.js';
import type { ReleaseAddressResponse as _sfdb_v1_ReleaseAddressResponse, ReleaseAddressResponse__Output as _sfdb_v1_ReleaseAddressResponse__Output } from '../../sfdb/v1/ReleaseAddressResponse.js';
import type { ReleaseLeaseRequest as _sfdb_v1_ReleaseLeaseRequest, ReleaseLeaseRequest__Output as _sfdb_v1_ReleaseLeaseRequest__Output } from '../../sfdb/v1/ReleaseLeaseRequest.js';
import type { ReleaseLeaseResponse as _sfdb_v1_ReleaseLeaseResponse, ReleaseLeaseResponse__Output as _sfdb_v1_ReleaseLeaseResponse__Output } from '../../sfdb/v1/ReleaseLeaseResponse.js';
import type { ReleaseRequest as _sfdb_v1_ReleaseRequest, ReleaseRequest__Output as _sfdb_v1_ReleaseRequest__Output } from '../../sfdb/v1/ReleaseRequest.js';
import type { ReleaseResponse as _sfdb_v1_ReleaseResponse, ReleaseResponse__Output as _sfdb_v1_ReleaseResponse__Output } from '../../sfdb/v1/ReleaseResponse.js';
import type { RemoveReferenceRequest as _sfdb_v1_RemoveReferenceRequest, RemoveReferenceRequest__Output as _sfdb_v1_RemoveReferenceRequest__Output } from '../../sfdb/v1/RemoveReferenceRequest.js';
import type { RemoveReferenceResponse as _sfdb_v1_RemoveReferenceResponse, RemoveReferenceResponse__Output as _sfdb_v1_RemoveReferenceResponse__Output } from '../../sfdb/v1/RemoveReferenceResponse.js';
import type { RenewClaimRequest as _sfdb_v1_RenewClaimRequest, RenewClaimRequest__Output as _sfdb_v1_RenewClaimRequest__Output } from '../../sfdb/v1/RenewClaimRequest.js';
import type { RenewClaimResponse as _sfdb_v1_RenewClaimResponse, RenewClaimResponse__Output as _sfdb_v1_RenewClaimResponse__Output } from '../../sfdb/v1/RenewClaimResponse.js';
import type { RenewLeaseRequest as _sfdb_v1_RenewLeaseRequest, RenewLeaseRequest__Output as _sfdb_v1_RenewLeaseRequest__Output } from '../../sfdb/v1/RenewLeaseRequest.js';
import type { RenewLeaseResponse as _sfdb_v1_RenewLeaseResponse, RenewLeaseResponse__Output as _sfdb_v1_RenewLeaseResponse__Output } from '../../sfdb/v1/RenewLeaseResponse.js';
import type { RequeueExpiredClaimsRequest as _sfdb_v1_RequeueExpiredClaimsRequest, RequeueExpiredClaimsRequest__Output as _sfdb_v1_RequeueExpiredClaimsRequest__Output } from '../../sfdb/v1/RequeueExpiredClaimsRequest.js';
import type { RequeueExpiredClaimsResponse as _sfdb_v1_RequeueExpiredClaimsResponse, RequeueExpiredClaimsResponse__Output as _sfdb_v1_RequeueExpiredClaimsResponse__Output } from '../../sfdb/v1/RequeueExpiredClaimsResponse.js';
import type { ReserveAddressRequest as _sfdb_v1_ReserveAddressRequest, ReserveAddressRequest__Output as _sfdb_v1_ReserveAddressRequest__Output } from '../../sfdb/v1/ReserveAddressRequest.js';
import type { ReserveAddressResponse as _sfdb_v1_ReserveAddressResponse, ReserveAddressResponse__Output as _sfdb_v1_ReserveAddressResponse__Output } from '../../sfdb/v1/ReserveAddressResponse.js';
import type { ResolveRequest as _sfdb_v1_ResolveRequest, ResolveRequest__Output as _sfdb_v1_ResolveRequest__Output } from '../../sfdb/v1/ResolveRequest.js';
import type { ResolveResponse as _sfdb_v1_ResolveResponse, ResolveResponse__Output as _sfdb_v1_ResolveResponse__Output } from '../../sfdb/v1/ResolveResponse.js';
import type { SetClusterConfigRequest as _sfdb_v1_SetClusterConfigRequest, SetClusterConfigRequest__Output as _sfdb_v1_SetClusterConfigRequest__Output } from '../../sfdb/v1/SetClusterConfigRequest.js';
import type { SetClusterConfigResponse as _sfdb_v1_SetClusterConfigResponse, SetClusterConfigResponse__Output as _sfdb_v1_SetClusterConfigResponse__Output } from '../../sfdb/v1/SetClusterConfigResponse.js';
import type { SetNodeDaemonStateRequest as _sfdb_v1_SetNodeDaemonStateRequest, SetNodeDaemonStateRequest__Output as _sfdb_v1_SetNodeDaemonStateRequest__Output } from '../../sfdb/v1/SetNodeDaemonStateRequest.js';
import type { SetNodeDaemonStateResponse as _sfdb_v1_SetNodeDaemonStateResponse, SetNodeDaemonStateResponse__Output as _sfdb_v1_SetNodeDaemonStateResponse__Output } from '../../sfdb/v1/SetNodeDaemonStateResponse.js';
import type { SetObjectAttributesRequest as _sfdb_v1_SetObjectAttributesRequest, SetObjectAttributesRequest__Output as _sfdb_v1_SetObjectAttributesRequest__Output } from '../../sfdb/v1/SetObjectAttributesRequest.js';
import type { SetObjectAttributesResponse as _sfdb_v1_SetObjectAttributesResponse, SetObjectAttributesResponse__Output as _sfdb_v1_SetObjectAttributesResponse__Output } from '../../sfdb/v1/SetObjectAttributesResponse.js';
import type { SetObjectStateRequest as _sfdb_v1_SetObjectStateRequest, SetObjectStateRequest__Output as _sfdb_v1_SetObjectStateRequest__Output } from '../../sfdb/v1/SetObjectStateRequest.js';
import type { SetObjectStateResponse as _sfdb_v1_SetObjectStateResponse, SetObjectStateResponse__Output as _sfdb_v1_SetObjectStateResponse__Output } from '../../sfdb/v1/SetObjectStateResponse.js';
import type { SweepReplicaRegistryRequest as _sfdb_v1_SweepReplicaRegistryRequest, SweepReplicaRegistryRequest__Output as _sfdb_v1_SweepReplicaRegistryRequest__Output } from '../../sfdb/v1/SweepReplicaRegistryRequest.js';
import type { SweepReplicaRegistryResponse as _sfdb_v1_SweepReplicaRegistryResponse, SweepReplicaRegistryResponse__Output as _sfdb_v1_SweepReplicaRegistryResponse__Output } from '../../sfdb/v1/SweepReplicaRegistryResponse.js';
import type { UpdateBlobTransferRequest as _sfdb_v1_UpdateBlobTransferRequest, UpdateBlobTransferRequest__Output as _sfdb_v1_UpdateBlobTransferRequest__Output } from '../../sfdb/v1/UpdateBlobTransferRequest.js';
import type { UpdateBlobTransferResponse as _sfdb_v1_UpdateBlobTransferResponse, UpdateBlobTransferResponse__Output as _sfdb_v1_UpdateBlobTransferResponse__Output } from '../../sfdb/v1/UpdateBlobTransferResponse.js';
import type { UpdateNodeRequest as _sfdb_v1_UpdateNodeRequest, UpdateNodeRequest__Output as _sfdb_v1_UpdateNodeRequest__Output } from '../../sfdb/v1/UpdateNodeRequest.js';
import type { UpdateNodeResponse as _sfdb_v1_UpdateNodeResponse, UpdateNodeResponse__Output as _sfdb_v1_UpdateNodeResponse__Output } from '../../sfdb/v1/UpdateNodeResponse.js';
import type { UpdateStaticObjectRequest as _sfdb_v1_UpdateStaticObjectRequest, UpdateStaticObjectRequest__Output as _sfdb_v1_UpdateStaticObjectRequest__Output } from '../../sfdb/v1/UpdateStaticObjectRequest.js';
import type { UpdateStaticObjectResponse as _sfdb_v1_UpdateStaticObjectResponse, UpdateStaticObjectResponse__Output as _sfdb_v1_UpdateStaticObjectResponse__Output } from '../../sfdb/v1/UpdateStaticObjectResponse.js';
import type { WaitForChangesRequest as _sfdb_v1_WaitForChangesRequest, WaitForChangesRequest__Output as _sfdb_v1_WaitForChangesRequest__Output } from '../../sfdb/v1/WaitForChangesRequest.js';
import type { WaitForChangesResponse as _sfdb_v1_WaitForChangesResponse, WaitForChangesResponse__Output as _sfdb_v1_WaitForChangesResponse__Output } from '../../sfdb/v1/WaitForChangesResponse.js';
import type { WatchReplicasRequest as _sfdb_v1_WatchReplicasRequest, WatchReplicasRequest__Output as _sfdb_v1_WatchReplicasRequest__Output } from '../../sfdb/v1/WatchReplicasRequest.js';
import type { WatchReplicasResponse as _sfdb_v1_WatchReplicasResponse, WatchReplicasResponse__Output as _sfdb_v1_WatchReplicasResponse__Output } from '../../sfdb/v1/WatchReplicasResponse.js';

export interface DatabaseClient extends grpc.Client {
  /**
   * Leases
   */
  AcquireLease(argument: _sfdb_v1_AcquireLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_AcquireLeaseResponse__Output>): grpc.ClientUnaryCall;
  AcquireLease(argument: _sfdb_v1_AcquireLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_AcquireLeaseResponse__Output>): grpc.ClientUnaryCall;
  AcquireLease(argument: _sfdb_v1_AcquireLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_AcquireLeaseResponse__Output>): grpc.ClientUnaryCall;
  AcquireLease(argument: _sfdb_v1_AcquireLeaseRequest, callback: grpc.requestCallback<_sfdb_v1_AcquireLeaseResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Leases
   */
  acquireLease(argument: _sfdb_v1_AcquireLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_AcquireLeaseResponse__Output>): grpc.ClientUnaryCall;
  acquireLease(argument: _sfdb_v1_AcquireLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_AcquireLeaseResponse__Output>): grpc.ClientUnaryCall;
  acquireLease(argument: _sfdb_v1_AcquireLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_AcquireLeaseResponse__Output>): grpc.ClientUnaryCall;
  acquireLease(argument: _sfdb_v1_AcquireLeaseRequest, callback: grpc.requestCallback<_sfdb_v1_AcquireLeaseResponse__Output>): grpc.ClientUnaryCall;
  
  CreateAgentOperation(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateAgentOperation(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateAgentOperation(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateAgentOperation(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createAgentOperation(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createAgentOperation(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createAgentOperation(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createAgentOperation(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  CreateArtifact(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateArtifact(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateArtifact(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateArtifact(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createArtifact(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createArtifact(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createArtifact(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createArtifact(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Upgradeable: rare writes.
   */
  CreateBlob(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateBlob(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateBlob(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateBlob(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Upgradeable: rare writes.
   */
  createBlob(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createBlob(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createBlob(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createBlob(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Blob transfers
   */
  CreateBlobTransfer(argument: _sfdb_v1_CreateBlobTransferRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateBlobTransferResponse__Output>): grpc.ClientUnaryCall;
  CreateBlobTransfer(argument: _sfdb_v1_CreateBlobTransferRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateBlobTransferResponse__Output>): grpc.ClientUnaryCall;
  CreateBlobTransfer(argument: _sfdb_v1_CreateBlobTransferRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateBlobTransferResponse__Output>): grpc.ClientUnaryCall;
  CreateBlobTransfer(argument: _sfdb_v1_CreateBlobTransferRequest, callback: grpc.requestCallback<_sfdb_v1_CreateBlobTransferResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Blob transfers
   */
  createBlobTransfer(argument: _sfdb_v1_CreateBlobTransferRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateBlobTransferResponse__Output>): grpc.ClientUnaryCall;
  createBlobTransfer(argument: _sfdb_v1_CreateBlobTransferRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateBlobTransferResponse__Output>): grpc.ClientUnaryCall;
  createBlobTransfer(argument: _sfdb_v1_CreateBlobTransferRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateBlobTransferResponse__Output>): grpc.ClientUnaryCall;
  createBlobTransfer(argument: _sfdb_v1_CreateBlobTransferRequest, callback: grpc.requestCallback<_sfdb_v1_CreateBlobTransferResponse__Output>): grpc.ClientUnaryCall;
  
  CreateIPAM(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateIPAM(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateIPAM(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateIPAM(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createIpam(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createIpam(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createIpam(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createIpam(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Objects: static values, one typed set of RPCs per object type so that the client is
   * typed and the per-operation counters tell the types apart.
   * Immutable after creation.
   */
  CreateInstance(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateInstance(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateInstance(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateInstance(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Objects: static values, one typed set of RPCs per object type so that the client is
   * typed and the per-operation counters tell the types apart.
   * Immutable after creation.
   */
  createInstance(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createInstance(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createInstance(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createInstance(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  CreateNamespace(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateNamespace(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateNamespace(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateNamespace(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createNamespace(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createNamespace(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createNamespace(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createNamespace(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  CreateNetwork(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateNetwork(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateNetwork(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateNetwork(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createNetwork(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createNetwork(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createNetwork(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createNetwork(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  CreateNetworkInterface(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateNetworkInterface(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateNetworkInterface(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateNetworkInterface(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createNetworkInterface(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createNetworkInterface(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createNetworkInterface(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createNetworkInterface(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Nodes
   */
  CreateNode(argument: _sfdb_v1_CreateNodeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateNodeResponse__Output>): grpc.ClientUnaryCall;
  CreateNode(argument: _sfdb_v1_CreateNodeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateNodeResponse__Output>): grpc.ClientUnaryCall;
  CreateNode(argument: _sfdb_v1_CreateNodeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateNodeResponse__Output>): grpc.ClientUnaryCall;
  CreateNode(argument: _sfdb_v1_CreateNodeRequest, callback: grpc.requestCallback<_sfdb_v1_CreateNodeResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Nodes
   */
  createNode(argument: _sfdb_v1_CreateNodeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateNodeResponse__Output>): grpc.ClientUnaryCall;
  createNode(argument: _sfdb_v1_CreateNodeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateNodeResponse__Output>): grpc.ClientUnaryCall;
  createNode(argument: _sfdb_v1_CreateNodeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateNodeResponse__Output>): grpc.ClientUnaryCall;
  createNode(argument: _sfdb_v1_CreateNodeRequest, callback: grpc.requestCallback<_sfdb_v1_CreateNodeResponse__Output>): grpc.ClientUnaryCall;
  
  CreateUpload(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateUpload(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateUpload(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  CreateUpload(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createUpload(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createUpload(argument: _sfdb_v1_CreateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createUpload(argument: _sfdb_v1_CreateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  createUpload(argument: _sfdb_v1_CreateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_CreateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteAgentOperation(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteAgentOperation(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteAgentOperation(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteAgentOperation(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteAgentOperation(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteAgentOperation(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteAgentOperation(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteAgentOperation(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteArtifact(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteArtifact(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteArtifact(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteArtifact(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteArtifact(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteArtifact(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteArtifact(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteArtifact(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteBlob(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteBlob(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteBlob(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteBlob(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteBlob(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteBlob(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteBlob(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteBlob(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteIPAM(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteIPAM(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteIPAM(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteIPAM(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteIpam(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteIpam(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteIpam(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteIpam(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteInstance(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteInstance(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteInstance(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteInstance(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteInstance(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteInstance(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteInstance(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteInstance(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteNamespace(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteNamespace(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteNamespace(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteNamespace(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteNamespace(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteNamespace(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteNamespace(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteNamespace(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteNetwork(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteNetwork(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteNetwork(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteNetwork(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteNetwork(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteNetwork(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteNetwork(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteNetwork(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteNetworkInterface(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteNetworkInterface(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteNetworkInterface(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteNetworkInterface(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteNetworkInterface(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteNetworkInterface(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteNetworkInterface(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteNetworkInterface(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteNode(argument: _sfdb_v1_DeleteNodeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteNode(argument: _sfdb_v1_DeleteNodeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteNode(argument: _sfdb_v1_DeleteNodeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteNode(argument: _sfdb_v1_DeleteNodeRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteNode(argument: _sfdb_v1_DeleteNodeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteNode(argument: _sfdb_v1_DeleteNodeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteNode(argument: _sfdb_v1_DeleteNodeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteNode(argument: _sfdb_v1_DeleteNodeRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteObjectAttributes(argument: _sfdb_v1_DeleteObjectAttributesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteObjectAttributes(argument: _sfdb_v1_DeleteObjectAttributesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteObjectAttributes(argument: _sfdb_v1_DeleteObjectAttributesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteObjectAttributes(argument: _sfdb_v1_DeleteObjectAttributesRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteObjectAttributes(argument: _sfdb_v1_DeleteObjectAttributesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteObjectAttributes(argument: _sfdb_v1_DeleteObjectAttributesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteObjectAttributes(argument: _sfdb_v1_DeleteObjectAttributesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteObjectAttributes(argument: _sfdb_v1_DeleteObjectAttributesRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteObjectState(argument: _sfdb_v1_DeleteObjectStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteObjectState(argument: _sfdb_v1_DeleteObjectStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteObjectState(argument: _sfdb_v1_DeleteObjectStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteObjectState(argument: _sfdb_v1_DeleteObjectStateRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteObjectState(argument: _sfdb_v1_DeleteObjectStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteObjectState(argument: _sfdb_v1_DeleteObjectStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteObjectState(argument: _sfdb_v1_DeleteObjectStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteObjectState(argument: _sfdb_v1_DeleteObjectStateRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteUpload(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteUpload(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteUpload(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  DeleteUpload(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteUpload(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteUpload(argument: _sfdb_v1_DeleteStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteUpload(argument: _sfdb_v1_DeleteStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  deleteUpload(argument: _sfdb_v1_DeleteStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  
  Dequeue(argument: _sfdb_v1_DequeueRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DequeueResponse__Output>): grpc.ClientUnaryCall;
  Dequeue(argument: _sfdb_v1_DequeueRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DequeueResponse__Output>): grpc.ClientUnaryCall;
  Dequeue(argument: _sfdb_v1_DequeueRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DequeueResponse__Output>): grpc.ClientUnaryCall;
  Dequeue(argument: _sfdb_v1_DequeueRequest, callback: grpc.requestCallback<_sfdb_v1_DequeueResponse__Output>): grpc.ClientUnaryCall;
  dequeue(argument: _sfdb_v1_DequeueRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DequeueResponse__Output>): grpc.ClientUnaryCall;
  dequeue(argument: _sfdb_v1_DequeueRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_DequeueResponse__Output>): grpc.ClientUnaryCall;
  dequeue(argument: _sfdb_v1_DequeueRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_DequeueResponse__Output>): grpc.ClientUnaryCall;
  dequeue(argument: _sfdb_v1_DequeueRequest, callback: grpc.requestCallback<_sfdb_v1_DequeueResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Queue
   */
  Enqueue(argument: _sfdb_v1_EnqueueRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_EnqueueResponse__Output>): grpc.ClientUnaryCall;
  Enqueue(argument: _sfdb_v1_EnqueueRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_EnqueueResponse__Output>): grpc.ClientUnaryCall;
  Enqueue(argument: _sfdb_v1_EnqueueRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_EnqueueResponse__Output>): grpc.ClientUnaryCall;
  Enqueue(argument: _sfdb_v1_EnqueueRequest, callback: grpc.requestCallback<_sfdb_v1_EnqueueResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Queue
   */
  enqueue(argument: _sfdb_v1_EnqueueRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_EnqueueResponse__Output>): grpc.ClientUnaryCall;
  enqueue(argument: _sfdb_v1_EnqueueRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_EnqueueResponse__Output>): grpc.ClientUnaryCall;
  enqueue(argument: _sfdb_v1_EnqueueRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_EnqueueResponse__Output>): grpc.ClientUnaryCall;
  enqueue(argument: _sfdb_v1_EnqueueRequest, callback: grpc.requestCallback<_sfdb_v1_EnqueueResponse__Output>): grpc.ClientUnaryCall;
  
  GetAddressesInUse(argument: _sfdb_v1_GetAddressesInUseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetAddressesInUseResponse__Output>): grpc.ClientUnaryCall;
  GetAddressesInUse(argument: _sfdb_v1_GetAddressesInUseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetAddressesInUseResponse__Output>): grpc.ClientUnaryCall;
  GetAddressesInUse(argument: _sfdb_v1_GetAddressesInUseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetAddressesInUseResponse__Output>): grpc.ClientUnaryCall;
  GetAddressesInUse(argument: _sfdb_v1_GetAddressesInUseRequest, callback: grpc.requestCallback<_sfdb_v1_GetAddressesInUseResponse__Output>): grpc.ClientUnaryCall;
  getAddressesInUse(argument: _sfdb_v1_GetAddressesInUseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetAddressesInUseResponse__Output>): grpc.ClientUnaryCall;
  getAddressesInUse(argument: _sfdb_v1_GetAddressesInUseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetAddressesInUseResponse__Output>): grpc.ClientUnaryCall;
  getAddressesInUse(argument: _sfdb_v1_GetAddressesInUseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetAddressesInUseResponse__Output>): grpc.ClientUnaryCall;
  getAddressesInUse(argument: _sfdb_v1_GetAddressesInUseRequest, callback: grpc.requestCallback<_sfdb_v1_GetAddressesInUseResponse__Output>): grpc.ClientUnaryCall;
  
  GetAgentOperation(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetAgentOperation(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetAgentOperation(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetAgentOperation(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getAgentOperation(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getAgentOperation(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getAgentOperation(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getAgentOperation(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  GetArtifact(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetArtifact(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetArtifact(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetArtifact(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getArtifact(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getArtifact(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getArtifact(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getArtifact(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  GetBlob(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetBlob(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetBlob(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetBlob(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getBlob(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getBlob(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getBlob(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getBlob(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  GetBlobTransfersForNode(argument: _sfdb_v1_GetBlobTransfersForNodeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetBlobTransfersForNodeResponse__Output>): grpc.ClientUnaryCall;
  GetBlobTransfersForNode(argument: _sfdb_v1_GetBlobTransfersForNodeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetBlobTransfersForNodeResponse__Output>): grpc.ClientUnaryCall;
  GetBlobTransfersForNode(argument: _sfdb_v1_GetBlobTransfersForNodeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetBlobTransfersForNodeResponse__Output>): grpc.ClientUnaryCall;
  GetBlobTransfersForNode(argument: _sfdb_v1_GetBlobTransfersForNodeRequest, callback: grpc.requestCallback<_sfdb_v1_GetBlobTransfersForNodeResponse__Output>): grpc.ClientUnaryCall;
  getBlobTransfersForNode(argument: _sfdb_v1_GetBlobTransfersForNodeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetBlobTransfersForNodeResponse__Output>): grpc.ClientUnaryCall;
  getBlobTransfersForNode(argument: _sfdb_v1_GetBlobTransfersForNodeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetBlobTransfersForNodeResponse__Output>): grpc.ClientUnaryCall;
  getBlobTransfersForNode(argument: _sfdb_v1_GetBlobTransfersForNodeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetBlobTransfersForNodeResponse__Output>): grpc.ClientUnaryCall;
  getBlobTransfersForNode(argument: _sfdb_v1_GetBlobTransfersForNodeRequest, callback: grpc.requestCallback<_sfdb_v1_GetBlobTransfersForNodeResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The same without waiting, in pages: for jobs that read only what changed.
   */
  GetChangesSince(argument: _sfdb_v1_GetChangesSinceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetChangesSinceResponse__Output>): grpc.ClientUnaryCall;
  GetChangesSince(argument: _sfdb_v1_GetChangesSinceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetChangesSinceResponse__Output>): grpc.ClientUnaryCall;
  GetChangesSince(argument: _sfdb_v1_GetChangesSinceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetChangesSinceResponse__Output>): grpc.ClientUnaryCall;
  GetChangesSince(argument: _sfdb_v1_GetChangesSinceRequest, callback: grpc.requestCallback<_sfdb_v1_GetChangesSinceResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The same without waiting, in pages: for jobs that read only what changed.
   */
  getChangesSince(argument: _sfdb_v1_GetChangesSinceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetChangesSinceResponse__Output>): grpc.ClientUnaryCall;
  getChangesSince(argument: _sfdb_v1_GetChangesSinceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetChangesSinceResponse__Output>): grpc.ClientUnaryCall;
  getChangesSince(argument: _sfdb_v1_GetChangesSinceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetChangesSinceResponse__Output>): grpc.ClientUnaryCall;
  getChangesSince(argument: _sfdb_v1_GetChangesSinceRequest, callback: grpc.requestCallback<_sfdb_v1_GetChangesSinceResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Cluster config
   */
  GetClusterConfig(argument: _sfdb_v1_GetClusterConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetClusterConfigResponse__Output>): grpc.ClientUnaryCall;
  GetClusterConfig(argument: _sfdb_v1_GetClusterConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetClusterConfigResponse__Output>): grpc.ClientUnaryCall;
  GetClusterConfig(argument: _sfdb_v1_GetClusterConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetClusterConfigResponse__Output>): grpc.ClientUnaryCall;
  GetClusterConfig(argument: _sfdb_v1_GetClusterConfigRequest, callback: grpc.requestCallback<_sfdb_v1_GetClusterConfigResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Cluster config
   */
  getClusterConfig(argument: _sfdb_v1_GetClusterConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetClusterConfigResponse__Output>): grpc.ClientUnaryCall;
  getClusterConfig(argument: _sfdb_v1_GetClusterConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetClusterConfigResponse__Output>): grpc.ClientUnaryCall;
  getClusterConfig(argument: _sfdb_v1_GetClusterConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetClusterConfigResponse__Output>): grpc.ClientUnaryCall;
  getClusterConfig(argument: _sfdb_v1_GetClusterConfigRequest, callback: grpc.requestCallback<_sfdb_v1_GetClusterConfigResponse__Output>): grpc.ClientUnaryCall;
  
  GetClusterStatus(argument: _sfdb_v1_GetClusterStatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetClusterStatusResponse__Output>): grpc.ClientUnaryCall;
  GetClusterStatus(argument: _sfdb_v1_GetClusterStatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetClusterStatusResponse__Output>): grpc.ClientUnaryCall;
  GetClusterStatus(argument: _sfdb_v1_GetClusterStatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetClusterStatusResponse__Output>): grpc.ClientUnaryCall;
  GetClusterStatus(argument: _sfdb_v1_GetClusterStatusRequest, callback: grpc.requestCallback<_sfdb_v1_GetClusterStatusResponse__Output>): grpc.ClientUnaryCall;
  getClusterStatus(argument: _sfdb_v1_GetClusterStatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetClusterStatusResponse__Output>): grpc.ClientUnaryCall;
  getClusterStatus(argument: _sfdb_v1_GetClusterStatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetClusterStatusResponse__Output>): grpc.ClientUnaryCall;
  getClusterStatus(argument: _sfdb_v1_GetClusterStatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetClusterStatusResponse__Output>): grpc.ClientUnaryCall;
  getClusterStatus(argument: _sfdb_v1_GetClusterStatusRequest, callback: grpc.requestCallback<_sfdb_v1_GetClusterStatusResponse__Output>): grpc.ClientUnaryCall;
  
  GetIPAM(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetIPAM(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetIPAM(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetIPAM(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getIpam(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getIpam(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getIpam(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getIpam(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  GetInstance(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetInstance(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetInstance(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetInstance(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getInstance(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getInstance(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getInstance(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getInstance(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  GetLease(argument: _sfdb_v1_GetLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetLeaseResponse__Output>): grpc.ClientUnaryCall;
  GetLease(argument: _sfdb_v1_GetLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetLeaseResponse__Output>): grpc.ClientUnaryCall;
  GetLease(argument: _sfdb_v1_GetLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetLeaseResponse__Output>): grpc.ClientUnaryCall;
  GetLease(argument: _sfdb_v1_GetLeaseRequest, callback: grpc.requestCallback<_sfdb_v1_GetLeaseResponse__Output>): grpc.ClientUnaryCall;
  getLease(argument: _sfdb_v1_GetLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetLeaseResponse__Output>): grpc.ClientUnaryCall;
  getLease(argument: _sfdb_v1_GetLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetLeaseResponse__Output>): grpc.ClientUnaryCall;
  getLease(argument: _sfdb_v1_GetLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetLeaseResponse__Output>): grpc.ClientUnaryCall;
  getLease(argument: _sfdb_v1_GetLeaseRequest, callback: grpc.requestCallback<_sfdb_v1_GetLeaseResponse__Output>): grpc.ClientUnaryCall;
  
  GetNamespace(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetNamespace(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetNamespace(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetNamespace(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getNamespace(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getNamespace(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getNamespace(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getNamespace(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  GetNetwork(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetNetwork(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetNetwork(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetNetwork(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getNetwork(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getNetwork(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getNetwork(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getNetwork(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  GetNetworkInterface(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetNetworkInterface(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetNetworkInterface(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetNetworkInterface(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getNetworkInterface(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getNetworkInterface(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getNetworkInterface(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getNetworkInterface(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  GetNode(argument: _sfdb_v1_GetNodeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetNodeResponse__Output>): grpc.ClientUnaryCall;
  GetNode(argument: _sfdb_v1_GetNodeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetNodeResponse__Output>): grpc.ClientUnaryCall;
  GetNode(argument: _sfdb_v1_GetNodeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetNodeResponse__Output>): grpc.ClientUnaryCall;
  GetNode(argument: _sfdb_v1_GetNodeRequest, callback: grpc.requestCallback<_sfdb_v1_GetNodeResponse__Output>): grpc.ClientUnaryCall;
  getNode(argument: _sfdb_v1_GetNodeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetNodeResponse__Output>): grpc.ClientUnaryCall;
  getNode(argument: _sfdb_v1_GetNodeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetNodeResponse__Output>): grpc.ClientUnaryCall;
  getNode(argument: _sfdb_v1_GetNodeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetNodeResponse__Output>): grpc.ClientUnaryCall;
  getNode(argument: _sfdb_v1_GetNodeRequest, callback: grpc.requestCallback<_sfdb_v1_GetNodeResponse__Output>): grpc.ClientUnaryCall;
  
  GetNodeByFqdn(argument: _sfdb_v1_GetNodeByFqdnRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetNodeResponse__Output>): grpc.ClientUnaryCall;
  GetNodeByFqdn(argument: _sfdb_v1_GetNodeByFqdnRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetNodeResponse__Output>): grpc.ClientUnaryCall;
  GetNodeByFqdn(argument: _sfdb_v1_GetNodeByFqdnRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetNodeResponse__Output>): grpc.ClientUnaryCall;
  GetNodeByFqdn(argument: _sfdb_v1_GetNodeByFqdnRequest, callback: grpc.requestCallback<_sfdb_v1_GetNodeResponse__Output>): grpc.ClientUnaryCall;
  getNodeByFqdn(argument: _sfdb_v1_GetNodeByFqdnRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetNodeResponse__Output>): grpc.ClientUnaryCall;
  getNodeByFqdn(argument: _sfdb_v1_GetNodeByFqdnRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetNodeResponse__Output>): grpc.ClientUnaryCall;
  getNodeByFqdn(argument: _sfdb_v1_GetNodeByFqdnRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetNodeResponse__Output>): grpc.ClientUnaryCall;
  getNodeByFqdn(argument: _sfdb_v1_GetNodeByFqdnRequest, callback: grpc.requestCallback<_sfdb_v1_GetNodeResponse__Output>): grpc.ClientUnaryCall;
  
  GetNodeDaemonState(argument: _sfdb_v1_GetNodeDaemonStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetNodeDaemonStateResponse__Output>): grpc.ClientUnaryCall;
  GetNodeDaemonState(argument: _sfdb_v1_GetNodeDaemonStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetNodeDaemonStateResponse__Output>): grpc.ClientUnaryCall;
  GetNodeDaemonState(argument: _sfdb_v1_GetNodeDaemonStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetNodeDaemonStateResponse__Output>): grpc.ClientUnaryCall;
  GetNodeDaemonState(argument: _sfdb_v1_GetNodeDaemonStateRequest, callback: grpc.requestCallback<_sfdb_v1_GetNodeDaemonStateResponse__Output>): grpc.ClientUnaryCall;
  getNodeDaemonState(argument: _sfdb_v1_GetNodeDaemonStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetNodeDaemonStateResponse__Output>): grpc.ClientUnaryCall;
  getNodeDaemonState(argument: _sfdb_v1_GetNodeDaemonStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetNodeDaemonStateResponse__Output>): grpc.ClientUnaryCall;
  getNodeDaemonState(argument: _sfdb_v1_GetNodeDaemonStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetNodeDaemonStateResponse__Output>): grpc.ClientUnaryCall;
  getNodeDaemonState(argument: _sfdb_v1_GetNodeDaemonStateRequest, callback: grpc.requestCallback<_sfdb_v1_GetNodeDaemonStateResponse__Output>): grpc.ClientUnaryCall;
  
  GetObjectAttributes(argument: _sfdb_v1_GetObjectAttributesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetObjectAttributesResponse__Output>): grpc.ClientUnaryCall;
  GetObjectAttributes(argument: _sfdb_v1_GetObjectAttributesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetObjectAttributesResponse__Output>): grpc.ClientUnaryCall;
  GetObjectAttributes(argument: _sfdb_v1_GetObjectAttributesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetObjectAttributesResponse__Output>): grpc.ClientUnaryCall;
  GetObjectAttributes(argument: _sfdb_v1_GetObjectAttributesRequest, callback: grpc.requestCallback<_sfdb_v1_GetObjectAttributesResponse__Output>): grpc.ClientUnaryCall;
  getObjectAttributes(argument: _sfdb_v1_GetObjectAttributesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetObjectAttributesResponse__Output>): grpc.ClientUnaryCall;
  getObjectAttributes(argument: _sfdb_v1_GetObjectAttributesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetObjectAttributesResponse__Output>): grpc.ClientUnaryCall;
  getObjectAttributes(argument: _sfdb_v1_GetObjectAttributesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetObjectAttributesResponse__Output>): grpc.ClientUnaryCall;
  getObjectAttributes(argument: _sfdb_v1_GetObjectAttributesRequest, callback: grpc.requestCallback<_sfdb_v1_GetObjectAttributesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Objects: mutable state and attributes, generic and keyed by type. Never cached.
   */
  GetObjectState(argument: _sfdb_v1_GetObjectStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetObjectStateResponse__Output>): grpc.ClientUnaryCall;
  GetObjectState(argument: _sfdb_v1_GetObjectStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetObjectStateResponse__Output>): grpc.ClientUnaryCall;
  GetObjectState(argument: _sfdb_v1_GetObjectStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetObjectStateResponse__Output>): grpc.ClientUnaryCall;
  GetObjectState(argument: _sfdb_v1_GetObjectStateRequest, callback: grpc.requestCallback<_sfdb_v1_GetObjectStateResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Objects: mutable state and attributes, generic and keyed by type. Never cached.
   */
  getObjectState(argument: _sfdb_v1_GetObjectStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetObjectStateResponse__Output>): grpc.ClientUnaryCall;
  getObjectState(argument: _sfdb_v1_GetObjectStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetObjectStateResponse__Output>): grpc.ClientUnaryCall;
  getObjectState(argument: _sfdb_v1_GetObjectStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetObjectStateResponse__Output>): grpc.ClientUnaryCall;
  getObjectState(argument: _sfdb_v1_GetObjectStateRequest, callback: grpc.requestCallback<_sfdb_v1_GetObjectStateResponse__Output>): grpc.ClientUnaryCall;
  
  GetQueueLength(argument: _sfdb_v1_GetQueueLengthRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetQueueLengthResponse__Output>): grpc.ClientUnaryCall;
  GetQueueLength(argument: _sfdb_v1_GetQueueLengthRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetQueueLengthResponse__Output>): grpc.ClientUnaryCall;
  GetQueueLength(argument: _sfdb_v1_GetQueueLengthRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetQueueLengthResponse__Output>): grpc.ClientUnaryCall;
  GetQueueLength(argument: _sfdb_v1_GetQueueLengthRequest, callback: grpc.requestCallback<_sfdb_v1_GetQueueLengthResponse__Output>): grpc.ClientUnaryCall;
  getQueueLength(argument: _sfdb_v1_GetQueueLengthRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetQueueLengthResponse__Output>): grpc.ClientUnaryCall;
  getQueueLength(argument: _sfdb_v1_GetQueueLengthRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetQueueLengthResponse__Output>): grpc.ClientUnaryCall;
  getQueueLength(argument: _sfdb_v1_GetQueueLengthRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetQueueLengthResponse__Output>): grpc.ClientUnaryCall;
  getQueueLength(argument: _sfdb_v1_GetQueueLengthRequest, callback: grpc.requestCallback<_sfdb_v1_GetQueueLengthResponse__Output>): grpc.ClientUnaryCall;
  
  GetReferencesFrom(argument: _sfdb_v1_GetReferencesFromRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetReferencesResponse__Output>): grpc.ClientUnaryCall;
  GetReferencesFrom(argument: _sfdb_v1_GetReferencesFromRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetReferencesResponse__Output>): grpc.ClientUnaryCall;
  GetReferencesFrom(argument: _sfdb_v1_GetReferencesFromRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetReferencesResponse__Output>): grpc.ClientUnaryCall;
  GetReferencesFrom(argument: _sfdb_v1_GetReferencesFromRequest, callback: grpc.requestCallback<_sfdb_v1_GetReferencesResponse__Output>): grpc.ClientUnaryCall;
  getReferencesFrom(argument: _sfdb_v1_GetReferencesFromRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetReferencesResponse__Output>): grpc.ClientUnaryCall;
  getReferencesFrom(argument: _sfdb_v1_GetReferencesFromRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetReferencesResponse__Output>): grpc.ClientUnaryCall;
  getReferencesFrom(argument: _sfdb_v1_GetReferencesFromRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetReferencesResponse__Output>): grpc.ClientUnaryCall;
  getReferencesFrom(argument: _sfdb_v1_GetReferencesFromRequest, callback: grpc.requestCallback<_sfdb_v1_GetReferencesResponse__Output>): grpc.ClientUnaryCall;
  
  GetReferencesTo(argument: _sfdb_v1_GetReferencesToRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetReferencesResponse__Output>): grpc.ClientUnaryCall;
  GetReferencesTo(argument: _sfdb_v1_GetReferencesToRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetReferencesResponse__Output>): grpc.ClientUnaryCall;
  GetReferencesTo(argument: _sfdb_v1_GetReferencesToRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetReferencesResponse__Output>): grpc.ClientUnaryCall;
  GetReferencesTo(argument: _sfdb_v1_GetReferencesToRequest, callback: grpc.requestCallback<_sfdb_v1_GetReferencesResponse__Output>): grpc.ClientUnaryCall;
  getReferencesTo(argument: _sfdb_v1_GetReferencesToRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetReferencesResponse__Output>): grpc.ClientUnaryCall;
  getReferencesTo(argument: _sfdb_v1_GetReferencesToRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetReferencesResponse__Output>): grpc.ClientUnaryCall;
  getReferencesTo(argument: _sfdb_v1_GetReferencesToRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetReferencesResponse__Output>): grpc.ClientUnaryCall;
  getReferencesTo(argument: _sfdb_v1_GetReferencesToRequest, callback: grpc.requestCallback<_sfdb_v1_GetReferencesResponse__Output>): grpc.ClientUnaryCall;
  
  GetUpload(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetUpload(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetUpload(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  GetUpload(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getUpload(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getUpload(argument: _sfdb_v1_GetStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getUpload(argument: _sfdb_v1_GetStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  getUpload(argument: _sfdb_v1_GetStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_GetStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  GetWorkItem(argument: _sfdb_v1_GetWorkItemRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetWorkItemResponse__Output>): grpc.ClientUnaryCall;
  GetWorkItem(argument: _sfdb_v1_GetWorkItemRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetWorkItemResponse__Output>): grpc.ClientUnaryCall;
  GetWorkItem(argument: _sfdb_v1_GetWorkItemRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetWorkItemResponse__Output>): grpc.ClientUnaryCall;
  GetWorkItem(argument: _sfdb_v1_GetWorkItemRequest, callback: grpc.requestCallback<_sfdb_v1_GetWorkItemResponse__Output>): grpc.ClientUnaryCall;
  getWorkItem(argument: _sfdb_v1_GetWorkItemRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetWorkItemResponse__Output>): grpc.ClientUnaryCall;
  getWorkItem(argument: _sfdb_v1_GetWorkItemRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_GetWorkItemResponse__Output>): grpc.ClientUnaryCall;
  getWorkItem(argument: _sfdb_v1_GetWorkItemRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_GetWorkItemResponse__Output>): grpc.ClientUnaryCall;
  getWorkItem(argument: _sfdb_v1_GetWorkItemRequest, callback: grpc.requestCallback<_sfdb_v1_GetWorkItemResponse__Output>): grpc.ClientUnaryCall;
  
  ListAgentOperations(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListAgentOperations(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListAgentOperations(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListAgentOperations(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listAgentOperations(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listAgentOperations(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listAgentOperations(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listAgentOperations(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  
  ListArtifacts(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListArtifacts(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListArtifacts(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListArtifacts(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listArtifacts(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listArtifacts(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listArtifacts(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listArtifacts(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  
  ListBlobs(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListBlobs(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListBlobs(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListBlobs(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listBlobs(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listBlobs(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listBlobs(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listBlobs(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  
  ListIPAMs(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListIPAMs(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListIPAMs(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListIPAMs(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listIpaMs(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listIpaMs(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listIpaMs(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listIpaMs(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  
  ListInstances(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListInstances(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListInstances(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListInstances(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listInstances(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listInstances(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listInstances(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listInstances(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  
  ListLeases(argument: _sfdb_v1_ListLeasesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListLeasesResponse__Output>): grpc.ClientUnaryCall;
  ListLeases(argument: _sfdb_v1_ListLeasesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListLeasesResponse__Output>): grpc.ClientUnaryCall;
  ListLeases(argument: _sfdb_v1_ListLeasesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListLeasesResponse__Output>): grpc.ClientUnaryCall;
  ListLeases(argument: _sfdb_v1_ListLeasesRequest, callback: grpc.requestCallback<_sfdb_v1_ListLeasesResponse__Output>): grpc.ClientUnaryCall;
  listLeases(argument: _sfdb_v1_ListLeasesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListLeasesResponse__Output>): grpc.ClientUnaryCall;
  listLeases(argument: _sfdb_v1_ListLeasesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListLeasesResponse__Output>): grpc.ClientUnaryCall;
  listLeases(argument: _sfdb_v1_ListLeasesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListLeasesResponse__Output>): grpc.ClientUnaryCall;
  listLeases(argument: _sfdb_v1_ListLeasesRequest, callback: grpc.requestCallback<_sfdb_v1_ListLeasesResponse__Output>): grpc.ClientUnaryCall;
  
  ListNamespaces(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListNamespaces(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListNamespaces(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListNamespaces(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listNamespaces(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listNamespaces(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listNamespaces(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listNamespaces(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  
  ListNetworkInterfaces(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListNetworkInterfaces(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListNetworkInterfaces(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListNetworkInterfaces(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listNetworkInterfaces(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listNetworkInterfaces(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listNetworkInterfaces(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listNetworkInterfaces(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  
  ListNetworks(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListNetworks(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListNetworks(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListNetworks(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listNetworks(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listNetworks(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listNetworks(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listNetworks(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  
  ListNodeDaemonStates(argument: _sfdb_v1_ListNodeDaemonStatesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListNodeDaemonStatesResponse__Output>): grpc.ClientUnaryCall;
  ListNodeDaemonStates(argument: _sfdb_v1_ListNodeDaemonStatesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListNodeDaemonStatesResponse__Output>): grpc.ClientUnaryCall;
  ListNodeDaemonStates(argument: _sfdb_v1_ListNodeDaemonStatesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListNodeDaemonStatesResponse__Output>): grpc.ClientUnaryCall;
  ListNodeDaemonStates(argument: _sfdb_v1_ListNodeDaemonStatesRequest, callback: grpc.requestCallback<_sfdb_v1_ListNodeDaemonStatesResponse__Output>): grpc.ClientUnaryCall;
  listNodeDaemonStates(argument: _sfdb_v1_ListNodeDaemonStatesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListNodeDaemonStatesResponse__Output>): grpc.ClientUnaryCall;
  listNodeDaemonStates(argument: _sfdb_v1_ListNodeDaemonStatesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListNodeDaemonStatesResponse__Output>): grpc.ClientUnaryCall;
  listNodeDaemonStates(argument: _sfdb_v1_ListNodeDaemonStatesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListNodeDaemonStatesResponse__Output>): grpc.ClientUnaryCall;
  listNodeDaemonStates(argument: _sfdb_v1_ListNodeDaemonStatesRequest, callback: grpc.requestCallback<_sfdb_v1_ListNodeDaemonStatesResponse__Output>): grpc.ClientUnaryCall;
  
  ListNodes(argument: _sfdb_v1_ListNodesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListNodesResponse__Output>): grpc.ClientUnaryCall;
  ListNodes(argument: _sfdb_v1_ListNodesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListNodesResponse__Output>): grpc.ClientUnaryCall;
  ListNodes(argument: _sfdb_v1_ListNodesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListNodesResponse__Output>): grpc.ClientUnaryCall;
  ListNodes(argument: _sfdb_v1_ListNodesRequest, callback: grpc.requestCallback<_sfdb_v1_ListNodesResponse__Output>): grpc.ClientUnaryCall;
  listNodes(argument: _sfdb_v1_ListNodesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListNodesResponse__Output>): grpc.ClientUnaryCall;
  listNodes(argument: _sfdb_v1_ListNodesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListNodesResponse__Output>): grpc.ClientUnaryCall;
  listNodes(argument: _sfdb_v1_ListNodesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListNodesResponse__Output>): grpc.ClientUnaryCall;
  listNodes(argument: _sfdb_v1_ListNodesRequest, callback: grpc.requestCallback<_sfdb_v1_ListNodesResponse__Output>): grpc.ClientUnaryCall;
  
  ListObjectEvents(argument: _sfdb_v1_ListObjectEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListObjectEventsResponse__Output>): grpc.ClientUnaryCall;
  ListObjectEvents(argument: _sfdb_v1_ListObjectEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListObjectEventsResponse__Output>): grpc.ClientUnaryCall;
  ListObjectEvents(argument: _sfdb_v1_ListObjectEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListObjectEventsResponse__Output>): grpc.ClientUnaryCall;
  ListObjectEvents(argument: _sfdb_v1_ListObjectEventsRequest, callback: grpc.requestCallback<_sfdb_v1_ListObjectEventsResponse__Output>): grpc.ClientUnaryCall;
  listObjectEvents(argument: _sfdb_v1_ListObjectEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListObjectEventsResponse__Output>): grpc.ClientUnaryCall;
  listObjectEvents(argument: _sfdb_v1_ListObjectEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListObjectEventsResponse__Output>): grpc.ClientUnaryCall;
  listObjectEvents(argument: _sfdb_v1_ListObjectEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListObjectEventsResponse__Output>): grpc.ClientUnaryCall;
  listObjectEvents(argument: _sfdb_v1_ListObjectEventsRequest, callback: grpc.requestCallback<_sfdb_v1_ListObjectEventsResponse__Output>): grpc.ClientUnaryCall;
  
  ListObjectsByState(argument: _sfdb_v1_ListObjectsByStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListObjectsByStateResponse__Output>): grpc.ClientUnaryCall;
  ListObjectsByState(argument: _sfdb_v1_ListObjectsByStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListObjectsByStateResponse__Output>): grpc.ClientUnaryCall;
  ListObjectsByState(argument: _sfdb_v1_ListObjectsByStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListObjectsByStateResponse__Output>): grpc.ClientUnaryCall;
  ListObjectsByState(argument: _sfdb_v1_ListObjectsByStateRequest, callback: grpc.requestCallback<_sfdb_v1_ListObjectsByStateResponse__Output>): grpc.ClientUnaryCall;
  listObjectsByState(argument: _sfdb_v1_ListObjectsByStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListObjectsByStateResponse__Output>): grpc.ClientUnaryCall;
  listObjectsByState(argument: _sfdb_v1_ListObjectsByStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListObjectsByStateResponse__Output>): grpc.ClientUnaryCall;
  listObjectsByState(argument: _sfdb_v1_ListObjectsByStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListObjectsByStateResponse__Output>): grpc.ClientUnaryCall;
  listObjectsByState(argument: _sfdb_v1_ListObjectsByStateRequest, callback: grpc.requestCallback<_sfdb_v1_ListObjectsByStateResponse__Output>): grpc.ClientUnaryCall;
  
  ListReservations(argument: _sfdb_v1_ListReservationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListReservationsResponse__Output>): grpc.ClientUnaryCall;
  ListReservations(argument: _sfdb_v1_ListReservationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListReservationsResponse__Output>): grpc.ClientUnaryCall;
  ListReservations(argument: _sfdb_v1_ListReservationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListReservationsResponse__Output>): grpc.ClientUnaryCall;
  ListReservations(argument: _sfdb_v1_ListReservationsRequest, callback: grpc.requestCallback<_sfdb_v1_ListReservationsResponse__Output>): grpc.ClientUnaryCall;
  listReservations(argument: _sfdb_v1_ListReservationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListReservationsResponse__Output>): grpc.ClientUnaryCall;
  listReservations(argument: _sfdb_v1_ListReservationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListReservationsResponse__Output>): grpc.ClientUnaryCall;
  listReservations(argument: _sfdb_v1_ListReservationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListReservationsResponse__Output>): grpc.ClientUnaryCall;
  listReservations(argument: _sfdb_v1_ListReservationsRequest, callback: grpc.requestCallback<_sfdb_v1_ListReservationsResponse__Output>): grpc.ClientUnaryCall;
  
  ListStuckClaims(argument: _sfdb_v1_ListStuckClaimsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStuckClaimsResponse__Output>): grpc.ClientUnaryCall;
  ListStuckClaims(argument: _sfdb_v1_ListStuckClaimsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStuckClaimsResponse__Output>): grpc.ClientUnaryCall;
  ListStuckClaims(argument: _sfdb_v1_ListStuckClaimsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStuckClaimsResponse__Output>): grpc.ClientUnaryCall;
  ListStuckClaims(argument: _sfdb_v1_ListStuckClaimsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStuckClaimsResponse__Output>): grpc.ClientUnaryCall;
  listStuckClaims(argument: _sfdb_v1_ListStuckClaimsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStuckClaimsResponse__Output>): grpc.ClientUnaryCall;
  listStuckClaims(argument: _sfdb_v1_ListStuckClaimsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStuckClaimsResponse__Output>): grpc.ClientUnaryCall;
  listStuckClaims(argument: _sfdb_v1_ListStuckClaimsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStuckClaimsResponse__Output>): grpc.ClientUnaryCall;
  listStuckClaims(argument: _sfdb_v1_ListStuckClaimsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStuckClaimsResponse__Output>): grpc.ClientUnaryCall;
  
  ListUploads(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListUploads(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListUploads(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  ListUploads(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listUploads(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listUploads(argument: _sfdb_v1_ListStaticObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listUploads(argument: _sfdb_v1_ListStaticObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  listUploads(argument: _sfdb_v1_ListStaticObjectsRequest, callback: grpc.requestCallback<_sfdb_v1_ListStaticObjectsResponse__Output>): grpc.ClientUnaryCall;
  
  ListWorkItems(argument: _sfdb_v1_ListWorkItemsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListWorkItemsResponse__Output>): grpc.ClientUnaryCall;
  ListWorkItems(argument: _sfdb_v1_ListWorkItemsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListWorkItemsResponse__Output>): grpc.ClientUnaryCall;
  ListWorkItems(argument: _sfdb_v1_ListWorkItemsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListWorkItemsResponse__Output>): grpc.ClientUnaryCall;
  ListWorkItems(argument: _sfdb_v1_ListWorkItemsRequest, callback: grpc.requestCallback<_sfdb_v1_ListWorkItemsResponse__Output>): grpc.ClientUnaryCall;
  listWorkItems(argument: _sfdb_v1_ListWorkItemsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListWorkItemsResponse__Output>): grpc.ClientUnaryCall;
  listWorkItems(argument: _sfdb_v1_ListWorkItemsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ListWorkItemsResponse__Output>): grpc.ClientUnaryCall;
  listWorkItems(argument: _sfdb_v1_ListWorkItemsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ListWorkItemsResponse__Output>): grpc.ClientUnaryCall;
  listWorkItems(argument: _sfdb_v1_ListWorkItemsRequest, callback: grpc.requestCallback<_sfdb_v1_ListWorkItemsResponse__Output>): grpc.ClientUnaryCall;
  
  NodeHeartbeat(argument: _sfdb_v1_NodeHeartbeatRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_NodeHeartbeatResponse__Output>): grpc.ClientUnaryCall;
  NodeHeartbeat(argument: _sfdb_v1_NodeHeartbeatRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_NodeHeartbeatResponse__Output>): grpc.ClientUnaryCall;
  NodeHeartbeat(argument: _sfdb_v1_NodeHeartbeatRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_NodeHeartbeatResponse__Output>): grpc.ClientUnaryCall;
  NodeHeartbeat(argument: _sfdb_v1_NodeHeartbeatRequest, callback: grpc.requestCallback<_sfdb_v1_NodeHeartbeatResponse__Output>): grpc.ClientUnaryCall;
  nodeHeartbeat(argument: _sfdb_v1_NodeHeartbeatRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_NodeHeartbeatResponse__Output>): grpc.ClientUnaryCall;
  nodeHeartbeat(argument: _sfdb_v1_NodeHeartbeatRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_NodeHeartbeatResponse__Output>): grpc.ClientUnaryCall;
  nodeHeartbeat(argument: _sfdb_v1_NodeHeartbeatRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_NodeHeartbeatResponse__Output>): grpc.ClientUnaryCall;
  nodeHeartbeat(argument: _sfdb_v1_NodeHeartbeatRequest, callback: grpc.requestCallback<_sfdb_v1_NodeHeartbeatResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Replica to replica, after a commit: which topics moved, up to which sequence numbers.
   * Never data: the receiver reads the rows itself. With no topics and no seqs, an
   * announcement: the sender has just registered, and the receiver reads the registry at
   * once and probes it from then on. Accepted only from a live registered replica
   * (PERMISSION_DENIED otherwise; UNAVAILABLE when the registry cannot be read to tell).
   */
  PokeChanges(argument: _sfdb_v1_PokeChangesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_PokeChangesResponse__Output>): grpc.ClientUnaryCall;
  PokeChanges(argument: _sfdb_v1_PokeChangesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_PokeChangesResponse__Output>): grpc.ClientUnaryCall;
  PokeChanges(argument: _sfdb_v1_PokeChangesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_PokeChangesResponse__Output>): grpc.ClientUnaryCall;
  PokeChanges(argument: _sfdb_v1_PokeChangesRequest, callback: grpc.requestCallback<_sfdb_v1_PokeChangesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Replica to replica, after a commit: which topics moved, up to which sequence numbers.
   * Never data: the receiver reads the rows itself. With no topics and no seqs, an
   * announcement: the sender has just registered, and the receiver reads the registry at
   * once and probes it from then on. Accepted only from a live registered replica
   * (PERMISSION_DENIED otherwise; UNAVAILABLE when the registry cannot be read to tell).
   */
  pokeChanges(argument: _sfdb_v1_PokeChangesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_PokeChangesResponse__Output>): grpc.ClientUnaryCall;
  pokeChanges(argument: _sfdb_v1_PokeChangesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_PokeChangesResponse__Output>): grpc.ClientUnaryCall;
  pokeChanges(argument: _sfdb_v1_PokeChangesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_PokeChangesResponse__Output>): grpc.ClientUnaryCall;
  pokeChanges(argument: _sfdb_v1_PokeChangesRequest, callback: grpc.requestCallback<_sfdb_v1_PokeChangesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Deletes change rows older than the retention (SFDB_CHANGEFEED_RETENTION_MS), oldest
   * first, in batches; its statements count as source `changefeed`. Then folds retired
   * counters older than SFDB_RETIRED_COUNTER_RETENTION_MS into the counter floor (source
   * `maintenance`; one indexed read when there are none).
   */
  PruneChanges(argument: _sfdb_v1_PruneChangesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_PruneChangesResponse__Output>): grpc.ClientUnaryCall;
  PruneChanges(argument: _sfdb_v1_PruneChangesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_PruneChangesResponse__Output>): grpc.ClientUnaryCall;
  PruneChanges(argument: _sfdb_v1_PruneChangesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_PruneChangesResponse__Output>): grpc.ClientUnaryCall;
  PruneChanges(argument: _sfdb_v1_PruneChangesRequest, callback: grpc.requestCallback<_sfdb_v1_PruneChangesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Deletes change rows older than the retention (SFDB_CHANGEFEED_RETENTION_MS), oldest
   * first, in batches; its statements count as source `changefeed`. Then folds retired
   * counters older than SFDB_RETIRED_COUNTER_RETENTION_MS into the counter floor (source
   * `maintenance`; one indexed read when there are none).
   */
  pruneChanges(argument: _sfdb_v1_PruneChangesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_PruneChangesResponse__Output>): grpc.ClientUnaryCall;
  pruneChanges(argument: _sfdb_v1_PruneChangesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_PruneChangesResponse__Output>): grpc.ClientUnaryCall;
  pruneChanges(argument: _sfdb_v1_PruneChangesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_PruneChangesResponse__Output>): grpc.ClientUnaryCall;
  pruneChanges(argument: _sfdb_v1_PruneChangesRequest, callback: grpc.requestCallback<_sfdb_v1_PruneChangesResponse__Output>): grpc.ClientUnaryCall;
  
  PruneEvents(argument: _sfdb_v1_PruneEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_PruneEventsResponse__Output>): grpc.ClientUnaryCall;
  PruneEvents(argument: _sfdb_v1_PruneEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_PruneEventsResponse__Output>): grpc.ClientUnaryCall;
  PruneEvents(argument: _sfdb_v1_PruneEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_PruneEventsResponse__Output>): grpc.ClientUnaryCall;
  PruneEvents(argument: _sfdb_v1_PruneEventsRequest, callback: grpc.requestCallback<_sfdb_v1_PruneEventsResponse__Output>): grpc.ClientUnaryCall;
  pruneEvents(argument: _sfdb_v1_PruneEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_PruneEventsResponse__Output>): grpc.ClientUnaryCall;
  pruneEvents(argument: _sfdb_v1_PruneEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_PruneEventsResponse__Output>): grpc.ClientUnaryCall;
  pruneEvents(argument: _sfdb_v1_PruneEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_PruneEventsResponse__Output>): grpc.ClientUnaryCall;
  pruneEvents(argument: _sfdb_v1_PruneEventsRequest, callback: grpc.requestCallback<_sfdb_v1_PruneEventsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Events
   */
  RecordEvents(argument: _sfdb_v1_RecordEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RecordEventsResponse__Output>): grpc.ClientUnaryCall;
  RecordEvents(argument: _sfdb_v1_RecordEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_RecordEventsResponse__Output>): grpc.ClientUnaryCall;
  RecordEvents(argument: _sfdb_v1_RecordEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RecordEventsResponse__Output>): grpc.ClientUnaryCall;
  RecordEvents(argument: _sfdb_v1_RecordEventsRequest, callback: grpc.requestCallback<_sfdb_v1_RecordEventsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Events
   */
  recordEvents(argument: _sfdb_v1_RecordEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RecordEventsResponse__Output>): grpc.ClientUnaryCall;
  recordEvents(argument: _sfdb_v1_RecordEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_RecordEventsResponse__Output>): grpc.ClientUnaryCall;
  recordEvents(argument: _sfdb_v1_RecordEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RecordEventsResponse__Output>): grpc.ClientUnaryCall;
  recordEvents(argument: _sfdb_v1_RecordEventsRequest, callback: grpc.requestCallback<_sfdb_v1_RecordEventsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * References between objects
   */
  RecordReference(argument: _sfdb_v1_RecordReferenceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RecordReferenceResponse__Output>): grpc.ClientUnaryCall;
  RecordReference(argument: _sfdb_v1_RecordReferenceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_RecordReferenceResponse__Output>): grpc.ClientUnaryCall;
  RecordReference(argument: _sfdb_v1_RecordReferenceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RecordReferenceResponse__Output>): grpc.ClientUnaryCall;
  RecordReference(argument: _sfdb_v1_RecordReferenceRequest, callback: grpc.requestCallback<_sfdb_v1_RecordReferenceResponse__Output>): grpc.ClientUnaryCall;
  /**
   * References between objects
   */
  recordReference(argument: _sfdb_v1_RecordReferenceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RecordReferenceResponse__Output>): grpc.ClientUnaryCall;
  recordReference(argument: _sfdb_v1_RecordReferenceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_RecordReferenceResponse__Output>): grpc.ClientUnaryCall;
  recordReference(argument: _sfdb_v1_RecordReferenceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RecordReferenceResponse__Output>): grpc.ClientUnaryCall;
  recordReference(argument: _sfdb_v1_RecordReferenceRequest, callback: grpc.requestCallback<_sfdb_v1_RecordReferenceResponse__Output>): grpc.ClientUnaryCall;
  
  Release(argument: _sfdb_v1_ReleaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ReleaseResponse__Output>): grpc.ClientUnaryCall;
  Release(argument: _sfdb_v1_ReleaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ReleaseResponse__Output>): grpc.ClientUnaryCall;
  Release(argument: _sfdb_v1_ReleaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ReleaseResponse__Output>): grpc.ClientUnaryCall;
  Release(argument: _sfdb_v1_ReleaseRequest, callback: grpc.requestCallback<_sfdb_v1_ReleaseResponse__Output>): grpc.ClientUnaryCall;
  release(argument: _sfdb_v1_ReleaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ReleaseResponse__Output>): grpc.ClientUnaryCall;
  release(argument: _sfdb_v1_ReleaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ReleaseResponse__Output>): grpc.ClientUnaryCall;
  release(argument: _sfdb_v1_ReleaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ReleaseResponse__Output>): grpc.ClientUnaryCall;
  release(argument: _sfdb_v1_ReleaseRequest, callback: grpc.requestCallback<_sfdb_v1_ReleaseResponse__Output>): grpc.ClientUnaryCall;
  
  ReleaseAddress(argument: _sfdb_v1_ReleaseAddressRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ReleaseAddressResponse__Output>): grpc.ClientUnaryCall;
  ReleaseAddress(argument: _sfdb_v1_ReleaseAddressRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ReleaseAddressResponse__Output>): grpc.ClientUnaryCall;
  ReleaseAddress(argument: _sfdb_v1_ReleaseAddressRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ReleaseAddressResponse__Output>): grpc.ClientUnaryCall;
  ReleaseAddress(argument: _sfdb_v1_ReleaseAddressRequest, callback: grpc.requestCallback<_sfdb_v1_ReleaseAddressResponse__Output>): grpc.ClientUnaryCall;
  releaseAddress(argument: _sfdb_v1_ReleaseAddressRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ReleaseAddressResponse__Output>): grpc.ClientUnaryCall;
  releaseAddress(argument: _sfdb_v1_ReleaseAddressRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ReleaseAddressResponse__Output>): grpc.ClientUnaryCall;
  releaseAddress(argument: _sfdb_v1_ReleaseAddressRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ReleaseAddressResponse__Output>): grpc.ClientUnaryCall;
  releaseAddress(argument: _sfdb_v1_ReleaseAddressRequest, callback: grpc.requestCallback<_sfdb_v1_ReleaseAddressResponse__Output>): grpc.ClientUnaryCall;
  
  ReleaseLease(argument: _sfdb_v1_ReleaseLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ReleaseLeaseResponse__Output>): grpc.ClientUnaryCall;
  ReleaseLease(argument: _sfdb_v1_ReleaseLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ReleaseLeaseResponse__Output>): grpc.ClientUnaryCall;
  ReleaseLease(argument: _sfdb_v1_ReleaseLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ReleaseLeaseResponse__Output>): grpc.ClientUnaryCall;
  ReleaseLease(argument: _sfdb_v1_ReleaseLeaseRequest, callback: grpc.requestCallback<_sfdb_v1_ReleaseLeaseResponse__Output>): grpc.ClientUnaryCall;
  releaseLease(argument: _sfdb_v1_ReleaseLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ReleaseLeaseResponse__Output>): grpc.ClientUnaryCall;
  releaseLease(argument: _sfdb_v1_ReleaseLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ReleaseLeaseResponse__Output>): grpc.ClientUnaryCall;
  releaseLease(argument: _sfdb_v1_ReleaseLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ReleaseLeaseResponse__Output>): grpc.ClientUnaryCall;
  releaseLease(argument: _sfdb_v1_ReleaseLeaseRequest, callback: grpc.requestCallback<_sfdb_v1_ReleaseLeaseResponse__Output>): grpc.ClientUnaryCall;
  
  RemoveReference(argument: _sfdb_v1_RemoveReferenceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RemoveReferenceResponse__Output>): grpc.ClientUnaryCall;
  RemoveReference(argument: _sfdb_v1_RemoveReferenceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_RemoveReferenceResponse__Output>): grpc.ClientUnaryCall;
  RemoveReference(argument: _sfdb_v1_RemoveReferenceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RemoveReferenceResponse__Output>): grpc.ClientUnaryCall;
  RemoveReference(argument: _sfdb_v1_RemoveReferenceRequest, callback: grpc.requestCallback<_sfdb_v1_RemoveReferenceResponse__Output>): grpc.ClientUnaryCall;
  removeReference(argument: _sfdb_v1_RemoveReferenceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RemoveReferenceResponse__Output>): grpc.ClientUnaryCall;
  removeReference(argument: _sfdb_v1_RemoveReferenceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_RemoveReferenceResponse__Output>): grpc.ClientUnaryCall;
  removeReference(argument: _sfdb_v1_RemoveReferenceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RemoveReferenceResponse__Output>): grpc.ClientUnaryCall;
  removeReference(argument: _sfdb_v1_RemoveReferenceRequest, callback: grpc.requestCallback<_sfdb_v1_RemoveReferenceResponse__Output>): grpc.ClientUnaryCall;
  
  RenewClaim(argument: _sfdb_v1_RenewClaimRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RenewClaimResponse__Output>): grpc.ClientUnaryCall;
  RenewClaim(argument: _sfdb_v1_RenewClaimRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_RenewClaimResponse__Output>): grpc.ClientUnaryCall;
  RenewClaim(argument: _sfdb_v1_RenewClaimRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RenewClaimResponse__Output>): grpc.ClientUnaryCall;
  RenewClaim(argument: _sfdb_v1_RenewClaimRequest, callback: grpc.requestCallback<_sfdb_v1_RenewClaimResponse__Output>): grpc.ClientUnaryCall;
  renewClaim(argument: _sfdb_v1_RenewClaimRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RenewClaimResponse__Output>): grpc.ClientUnaryCall;
  renewClaim(argument: _sfdb_v1_RenewClaimRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_RenewClaimResponse__Output>): grpc.ClientUnaryCall;
  renewClaim(argument: _sfdb_v1_RenewClaimRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RenewClaimResponse__Output>): grpc.ClientUnaryCall;
  renewClaim(argument: _sfdb_v1_RenewClaimRequest, callback: grpc.requestCallback<_sfdb_v1_RenewClaimResponse__Output>): grpc.ClientUnaryCall;
  
  RenewLease(argument: _sfdb_v1_RenewLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RenewLeaseResponse__Output>): grpc.ClientUnaryCall;
  RenewLease(argument: _sfdb_v1_RenewLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_RenewLeaseResponse__Output>): grpc.ClientUnaryCall;
  RenewLease(argument: _sfdb_v1_RenewLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RenewLeaseResponse__Output>): grpc.ClientUnaryCall;
  RenewLease(argument: _sfdb_v1_RenewLeaseRequest, callback: grpc.requestCallback<_sfdb_v1_RenewLeaseResponse__Output>): grpc.ClientUnaryCall;
  renewLease(argument: _sfdb_v1_RenewLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RenewLeaseResponse__Output>): grpc.ClientUnaryCall;
  renewLease(argument: _sfdb_v1_RenewLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_RenewLeaseResponse__Output>): grpc.ClientUnaryCall;
  renewLease(argument: _sfdb_v1_RenewLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RenewLeaseResponse__Output>): grpc.ClientUnaryCall;
  renewLease(argument: _sfdb_v1_RenewLeaseRequest, callback: grpc.requestCallback<_sfdb_v1_RenewLeaseResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Maintenance: singleton jobs run by the holder of a lease. The caller presents the
   * lease (name, holder, token); the tier checks it inside the job's transaction and
   * holds it shared until the job commits, so a deposed holder is Fenced and writes
   * nothing, and no new holder is granted the lease mid-job.
   */
  RequeueExpiredClaims(argument: _sfdb_v1_RequeueExpiredClaimsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RequeueExpiredClaimsResponse__Output>): grpc.ClientUnaryCall;
  RequeueExpiredClaims(argument: _sfdb_v1_RequeueExpiredClaimsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_RequeueExpiredClaimsResponse__Output>): grpc.ClientUnaryCall;
  RequeueExpiredClaims(argument: _sfdb_v1_RequeueExpiredClaimsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RequeueExpiredClaimsResponse__Output>): grpc.ClientUnaryCall;
  RequeueExpiredClaims(argument: _sfdb_v1_RequeueExpiredClaimsRequest, callback: grpc.requestCallback<_sfdb_v1_RequeueExpiredClaimsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Maintenance: singleton jobs run by the holder of a lease. The caller presents the
   * lease (name, holder, token); the tier checks it inside the job's transaction and
   * holds it shared until the job commits, so a deposed holder is Fenced and writes
   * nothing, and no new holder is granted the lease mid-job.
   */
  requeueExpiredClaims(argument: _sfdb_v1_RequeueExpiredClaimsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RequeueExpiredClaimsResponse__Output>): grpc.ClientUnaryCall;
  requeueExpiredClaims(argument: _sfdb_v1_RequeueExpiredClaimsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_RequeueExpiredClaimsResponse__Output>): grpc.ClientUnaryCall;
  requeueExpiredClaims(argument: _sfdb_v1_RequeueExpiredClaimsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_RequeueExpiredClaimsResponse__Output>): grpc.ClientUnaryCall;
  requeueExpiredClaims(argument: _sfdb_v1_RequeueExpiredClaimsRequest, callback: grpc.requestCallback<_sfdb_v1_RequeueExpiredClaimsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * IPAM reservations
   */
  ReserveAddress(argument: _sfdb_v1_ReserveAddressRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ReserveAddressResponse__Output>): grpc.ClientUnaryCall;
  ReserveAddress(argument: _sfdb_v1_ReserveAddressRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ReserveAddressResponse__Output>): grpc.ClientUnaryCall;
  ReserveAddress(argument: _sfdb_v1_ReserveAddressRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ReserveAddressResponse__Output>): grpc.ClientUnaryCall;
  ReserveAddress(argument: _sfdb_v1_ReserveAddressRequest, callback: grpc.requestCallback<_sfdb_v1_ReserveAddressResponse__Output>): grpc.ClientUnaryCall;
  /**
   * IPAM reservations
   */
  reserveAddress(argument: _sfdb_v1_ReserveAddressRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ReserveAddressResponse__Output>): grpc.ClientUnaryCall;
  reserveAddress(argument: _sfdb_v1_ReserveAddressRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ReserveAddressResponse__Output>): grpc.ClientUnaryCall;
  reserveAddress(argument: _sfdb_v1_ReserveAddressRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ReserveAddressResponse__Output>): grpc.ClientUnaryCall;
  reserveAddress(argument: _sfdb_v1_ReserveAddressRequest, callback: grpc.requestCallback<_sfdb_v1_ReserveAddressResponse__Output>): grpc.ClientUnaryCall;
  
  Resolve(argument: _sfdb_v1_ResolveRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ResolveResponse__Output>): grpc.ClientUnaryCall;
  Resolve(argument: _sfdb_v1_ResolveRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ResolveResponse__Output>): grpc.ClientUnaryCall;
  Resolve(argument: _sfdb_v1_ResolveRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ResolveResponse__Output>): grpc.ClientUnaryCall;
  Resolve(argument: _sfdb_v1_ResolveRequest, callback: grpc.requestCallback<_sfdb_v1_ResolveResponse__Output>): grpc.ClientUnaryCall;
  resolve(argument: _sfdb_v1_ResolveRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ResolveResponse__Output>): grpc.ClientUnaryCall;
  resolve(argument: _sfdb_v1_ResolveRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_ResolveResponse__Output>): grpc.ClientUnaryCall;
  resolve(argument: _sfdb_v1_ResolveRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_ResolveResponse__Output>): grpc.ClientUnaryCall;
  resolve(argument: _sfdb_v1_ResolveRequest, callback: grpc.requestCallback<_sfdb_v1_ResolveResponse__Output>): grpc.ClientUnaryCall;
  
  SetClusterConfig(argument: _sfdb_v1_SetClusterConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SetClusterConfigResponse__Output>): grpc.ClientUnaryCall;
  SetClusterConfig(argument: _sfdb_v1_SetClusterConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_SetClusterConfigResponse__Output>): grpc.ClientUnaryCall;
  SetClusterConfig(argument: _sfdb_v1_SetClusterConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SetClusterConfigResponse__Output>): grpc.ClientUnaryCall;
  SetClusterConfig(argument: _sfdb_v1_SetClusterConfigRequest, callback: grpc.requestCallback<_sfdb_v1_SetClusterConfigResponse__Output>): grpc.ClientUnaryCall;
  setClusterConfig(argument: _sfdb_v1_SetClusterConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SetClusterConfigResponse__Output>): grpc.ClientUnaryCall;
  setClusterConfig(argument: _sfdb_v1_SetClusterConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_SetClusterConfigResponse__Output>): grpc.ClientUnaryCall;
  setClusterConfig(argument: _sfdb_v1_SetClusterConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SetClusterConfigResponse__Output>): grpc.ClientUnaryCall;
  setClusterConfig(argument: _sfdb_v1_SetClusterConfigRequest, callback: grpc.requestCallback<_sfdb_v1_SetClusterConfigResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Daemon state
   */
  SetNodeDaemonState(argument: _sfdb_v1_SetNodeDaemonStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SetNodeDaemonStateResponse__Output>): grpc.ClientUnaryCall;
  SetNodeDaemonState(argument: _sfdb_v1_SetNodeDaemonStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_SetNodeDaemonStateResponse__Output>): grpc.ClientUnaryCall;
  SetNodeDaemonState(argument: _sfdb_v1_SetNodeDaemonStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SetNodeDaemonStateResponse__Output>): grpc.ClientUnaryCall;
  SetNodeDaemonState(argument: _sfdb_v1_SetNodeDaemonStateRequest, callback: grpc.requestCallback<_sfdb_v1_SetNodeDaemonStateResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Daemon state
   */
  setNodeDaemonState(argument: _sfdb_v1_SetNodeDaemonStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SetNodeDaemonStateResponse__Output>): grpc.ClientUnaryCall;
  setNodeDaemonState(argument: _sfdb_v1_SetNodeDaemonStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_SetNodeDaemonStateResponse__Output>): grpc.ClientUnaryCall;
  setNodeDaemonState(argument: _sfdb_v1_SetNodeDaemonStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SetNodeDaemonStateResponse__Output>): grpc.ClientUnaryCall;
  setNodeDaemonState(argument: _sfdb_v1_SetNodeDaemonStateRequest, callback: grpc.requestCallback<_sfdb_v1_SetNodeDaemonStateResponse__Output>): grpc.ClientUnaryCall;
  
  SetObjectAttributes(argument: _sfdb_v1_SetObjectAttributesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SetObjectAttributesResponse__Output>): grpc.ClientUnaryCall;
  SetObjectAttributes(argument: _sfdb_v1_SetObjectAttributesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_SetObjectAttributesResponse__Output>): grpc.ClientUnaryCall;
  SetObjectAttributes(argument: _sfdb_v1_SetObjectAttributesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SetObjectAttributesResponse__Output>): grpc.ClientUnaryCall;
  SetObjectAttributes(argument: _sfdb_v1_SetObjectAttributesRequest, callback: grpc.requestCallback<_sfdb_v1_SetObjectAttributesResponse__Output>): grpc.ClientUnaryCall;
  setObjectAttributes(argument: _sfdb_v1_SetObjectAttributesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SetObjectAttributesResponse__Output>): grpc.ClientUnaryCall;
  setObjectAttributes(argument: _sfdb_v1_SetObjectAttributesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_SetObjectAttributesResponse__Output>): grpc.ClientUnaryCall;
  setObjectAttributes(argument: _sfdb_v1_SetObjectAttributesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SetObjectAttributesResponse__Output>): grpc.ClientUnaryCall;
  setObjectAttributes(argument: _sfdb_v1_SetObjectAttributesRequest, callback: grpc.requestCallback<_sfdb_v1_SetObjectAttributesResponse__Output>): grpc.ClientUnaryCall;
  
  SetObjectState(argument: _sfdb_v1_SetObjectStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SetObjectStateResponse__Output>): grpc.ClientUnaryCall;
  SetObjectState(argument: _sfdb_v1_SetObjectStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_SetObjectStateResponse__Output>): grpc.ClientUnaryCall;
  SetObjectState(argument: _sfdb_v1_SetObjectStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SetObjectStateResponse__Output>): grpc.ClientUnaryCall;
  SetObjectState(argument: _sfdb_v1_SetObjectStateRequest, callback: grpc.requestCallback<_sfdb_v1_SetObjectStateResponse__Output>): grpc.ClientUnaryCall;
  setObjectState(argument: _sfdb_v1_SetObjectStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SetObjectStateResponse__Output>): grpc.ClientUnaryCall;
  setObjectState(argument: _sfdb_v1_SetObjectStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_SetObjectStateResponse__Output>): grpc.ClientUnaryCall;
  setObjectState(argument: _sfdb_v1_SetObjectStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SetObjectStateResponse__Output>): grpc.ClientUnaryCall;
  setObjectState(argument: _sfdb_v1_SetObjectStateRequest, callback: grpc.requestCallback<_sfdb_v1_SetObjectStateResponse__Output>): grpc.ClientUnaryCall;
  
  SweepReplicaRegistry(argument: _sfdb_v1_SweepReplicaRegistryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SweepReplicaRegistryResponse__Output>): grpc.ClientUnaryCall;
  SweepReplicaRegistry(argument: _sfdb_v1_SweepReplicaRegistryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_SweepReplicaRegistryResponse__Output>): grpc.ClientUnaryCall;
  SweepReplicaRegistry(argument: _sfdb_v1_SweepReplicaRegistryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SweepReplicaRegistryResponse__Output>): grpc.ClientUnaryCall;
  SweepReplicaRegistry(argument: _sfdb_v1_SweepReplicaRegistryRequest, callback: grpc.requestCallback<_sfdb_v1_SweepReplicaRegistryResponse__Output>): grpc.ClientUnaryCall;
  sweepReplicaRegistry(argument: _sfdb_v1_SweepReplicaRegistryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SweepReplicaRegistryResponse__Output>): grpc.ClientUnaryCall;
  sweepReplicaRegistry(argument: _sfdb_v1_SweepReplicaRegistryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_SweepReplicaRegistryResponse__Output>): grpc.ClientUnaryCall;
  sweepReplicaRegistry(argument: _sfdb_v1_SweepReplicaRegistryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_SweepReplicaRegistryResponse__Output>): grpc.ClientUnaryCall;
  sweepReplicaRegistry(argument: _sfdb_v1_SweepReplicaRegistryRequest, callback: grpc.requestCallback<_sfdb_v1_SweepReplicaRegistryResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateArtifact(argument: _sfdb_v1_UpdateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  UpdateArtifact(argument: _sfdb_v1_UpdateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  UpdateArtifact(argument: _sfdb_v1_UpdateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  UpdateArtifact(argument: _sfdb_v1_UpdateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  updateArtifact(argument: _sfdb_v1_UpdateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  updateArtifact(argument: _sfdb_v1_UpdateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  updateArtifact(argument: _sfdb_v1_UpdateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  updateArtifact(argument: _sfdb_v1_UpdateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateBlob(argument: _sfdb_v1_UpdateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  UpdateBlob(argument: _sfdb_v1_UpdateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  UpdateBlob(argument: _sfdb_v1_UpdateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  UpdateBlob(argument: _sfdb_v1_UpdateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  updateBlob(argument: _sfdb_v1_UpdateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  updateBlob(argument: _sfdb_v1_UpdateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  updateBlob(argument: _sfdb_v1_UpdateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  updateBlob(argument: _sfdb_v1_UpdateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateBlobTransfer(argument: _sfdb_v1_UpdateBlobTransferRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateBlobTransferResponse__Output>): grpc.ClientUnaryCall;
  UpdateBlobTransfer(argument: _sfdb_v1_UpdateBlobTransferRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_UpdateBlobTransferResponse__Output>): grpc.ClientUnaryCall;
  UpdateBlobTransfer(argument: _sfdb_v1_UpdateBlobTransferRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateBlobTransferResponse__Output>): grpc.ClientUnaryCall;
  UpdateBlobTransfer(argument: _sfdb_v1_UpdateBlobTransferRequest, callback: grpc.requestCallback<_sfdb_v1_UpdateBlobTransferResponse__Output>): grpc.ClientUnaryCall;
  updateBlobTransfer(argument: _sfdb_v1_UpdateBlobTransferRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateBlobTransferResponse__Output>): grpc.ClientUnaryCall;
  updateBlobTransfer(argument: _sfdb_v1_UpdateBlobTransferRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_UpdateBlobTransferResponse__Output>): grpc.ClientUnaryCall;
  updateBlobTransfer(argument: _sfdb_v1_UpdateBlobTransferRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateBlobTransferResponse__Output>): grpc.ClientUnaryCall;
  updateBlobTransfer(argument: _sfdb_v1_UpdateBlobTransferRequest, callback: grpc.requestCallback<_sfdb_v1_UpdateBlobTransferResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateNamespace(argument: _sfdb_v1_UpdateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  UpdateNamespace(argument: _sfdb_v1_UpdateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  UpdateNamespace(argument: _sfdb_v1_UpdateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  UpdateNamespace(argument: _sfdb_v1_UpdateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  updateNamespace(argument: _sfdb_v1_UpdateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  updateNamespace(argument: _sfdb_v1_UpdateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  updateNamespace(argument: _sfdb_v1_UpdateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  updateNamespace(argument: _sfdb_v1_UpdateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateNode(argument: _sfdb_v1_UpdateNodeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateNodeResponse__Output>): grpc.ClientUnaryCall;
  UpdateNode(argument: _sfdb_v1_UpdateNodeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_UpdateNodeResponse__Output>): grpc.ClientUnaryCall;
  UpdateNode(argument: _sfdb_v1_UpdateNodeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateNodeResponse__Output>): grpc.ClientUnaryCall;
  UpdateNode(argument: _sfdb_v1_UpdateNodeRequest, callback: grpc.requestCallback<_sfdb_v1_UpdateNodeResponse__Output>): grpc.ClientUnaryCall;
  updateNode(argument: _sfdb_v1_UpdateNodeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateNodeResponse__Output>): grpc.ClientUnaryCall;
  updateNode(argument: _sfdb_v1_UpdateNodeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_UpdateNodeResponse__Output>): grpc.ClientUnaryCall;
  updateNode(argument: _sfdb_v1_UpdateNodeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateNodeResponse__Output>): grpc.ClientUnaryCall;
  updateNode(argument: _sfdb_v1_UpdateNodeRequest, callback: grpc.requestCallback<_sfdb_v1_UpdateNodeResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateUpload(argument: _sfdb_v1_UpdateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  UpdateUpload(argument: _sfdb_v1_UpdateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  UpdateUpload(argument: _sfdb_v1_UpdateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  UpdateUpload(argument: _sfdb_v1_UpdateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  updateUpload(argument: _sfdb_v1_UpdateStaticObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  updateUpload(argument: _sfdb_v1_UpdateStaticObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  updateUpload(argument: _sfdb_v1_UpdateStaticObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  updateUpload(argument: _sfdb_v1_UpdateStaticObjectRequest, callback: grpc.requestCallback<_sfdb_v1_UpdateStaticObjectResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Change feed. Every mutating RPC appends change rows (topic, object type, id, kind) in
   * the transaction of its write; these answer ids and kinds only, never payloads: the
   * caller re-reads what changed through its normal, scoped read. Topics are built by
   * proto/topics.ts. A cursor is opaque text: pass back the one last answered.
   * 
   * WaitForChanges answers at once when a change on `topics` is past `cursor`, else holds
   * until one arrives or `timeout_ms` passes (an answer with no changes). An empty cursor
   * answers at once with the current cursor (read what you care about after that).
   * `resync`: the cursor is older than this replica's window, or above everything this
   * database has committed (a database restored from a backup); re-read everything the
   * topics cover and continue from the new cursor. RESOURCE_EXHAUSTED (with
   * grpc-retry-pushback-ms) when the replica holds its cap of waiters.
   */
  WaitForChanges(argument: _sfdb_v1_WaitForChangesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_WaitForChangesResponse__Output>): grpc.ClientUnaryCall;
  WaitForChanges(argument: _sfdb_v1_WaitForChangesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_WaitForChangesResponse__Output>): grpc.ClientUnaryCall;
  WaitForChanges(argument: _sfdb_v1_WaitForChangesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_WaitForChangesResponse__Output>): grpc.ClientUnaryCall;
  WaitForChanges(argument: _sfdb_v1_WaitForChangesRequest, callback: grpc.requestCallback<_sfdb_v1_WaitForChangesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Change feed. Every mutating RPC appends change rows (topic, object type, id, kind) in
   * the transaction of its write; these answer ids and kinds only, never payloads: the
   * caller re-reads what changed through its normal, scoped read. Topics are built by
   * proto/topics.ts. A cursor is opaque text: pass back the one last answered.
   * 
   * WaitForChanges answers at once when a change on `topics` is past `cursor`, else holds
   * until one arrives or `timeout_ms` passes (an answer with no changes). An empty cursor
   * answers at once with the current cursor (read what you care about after that).
   * `resync`: the cursor is older than this replica's window, or above everything this
   * database has committed (a database restored from a backup); re-read everything the
   * topics cover and continue from the new cursor. RESOURCE_EXHAUSTED (with
   * grpc-retry-pushback-ms) when the replica holds its cap of waiters.
   */
  waitForChanges(argument: _sfdb_v1_WaitForChangesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_WaitForChangesResponse__Output>): grpc.ClientUnaryCall;
  waitForChanges(argument: _sfdb_v1_WaitForChangesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_WaitForChangesResponse__Output>): grpc.ClientUnaryCall;
  waitForChanges(argument: _sfdb_v1_WaitForChangesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_WaitForChangesResponse__Output>): grpc.ClientUnaryCall;
  waitForChanges(argument: _sfdb_v1_WaitForChangesRequest, callback: grpc.requestCallback<_sfdb_v1_WaitForChangesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Replica health as this replica sees it: the gRPC addresses (as registered) of the live
   * peers that have stopped answering its probes for longer than its
   * SFDB_PEER_UNRESPONSIVE_MS (frozen, stopped, cut off by the network). A client holds
   * one of these on a replica other than its long-poll's and moves its long-poll off a
   * replica it names, so a frozen replica cannot keep it deaf. Answers at once when the
   * set's `version` is not `known`, else holds until the set changes or `timeout_ms`
   * passes. The empty set's version is "", so a first watch of a healthy cluster holds.
   */
  WatchReplicas(argument: _sfdb_v1_WatchReplicasRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_WatchReplicasResponse__Output>): grpc.ClientUnaryCall;
  WatchReplicas(argument: _sfdb_v1_WatchReplicasRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_WatchReplicasResponse__Output>): grpc.ClientUnaryCall;
  WatchReplicas(argument: _sfdb_v1_WatchReplicasRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_WatchReplicasResponse__Output>): grpc.ClientUnaryCall;
  WatchReplicas(argument: _sfdb_v1_WatchReplicasRequest, callback: grpc.requestCallback<_sfdb_v1_WatchReplicasResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Replica health as this replica sees it: the gRPC addresses (as registered) of the live
   * peers that have stopped answering its probes for longer than its
   * SFDB_PEER_UNRESPONSIVE_MS (frozen, stopped, cut off by the network). A client holds
   * one of these on a replica other than its long-poll's and moves its long-poll off a
   * replica it names, so a frozen replica cannot keep it deaf. Answers at once when the
   * set's `version` is not `known`, else holds until the set changes or `timeout_ms`
   * passes. The empty set's version is "", so a first watch of a healthy cluster holds.
   */
  watchReplicas(argument: _sfdb_v1_WatchReplicasRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_WatchReplicasResponse__Output>): grpc.ClientUnaryCall;
  watchReplicas(argument: _sfdb_v1_WatchReplicasRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sfdb_v1_WatchReplicasResponse__Output>): grpc.ClientUnaryCall;
  watchReplicas(argument: _sfdb_v1_WatchReplicasRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sfdb_v1_WatchReplicasResponse__Output>): grpc.ClientUnaryCall;
  watchReplicas(argument: _sfdb_v1_WatchReplicasRequest, callback: grpc.requestCallback<_sfdb_v1_WatchReplicasResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface DatabaseHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Leases
   */
  AcquireLease: grpc.handleUnaryCall<_sfdb_v1_AcquireLeaseRequest__Output, _sfdb_v1_AcquireLeaseResponse>;
  
  CreateAgentOperation: grpc.handleUnaryCall<_sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse>;
  
  CreateArtifact: grpc.handleUnaryCall<_sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse>;
  
  /**
   * Upgradeable: rare writes.
   */
  CreateBlob: grpc.handleUnaryCall<_sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse>;
  
  /**
   * Blob transfers
   */
  CreateBlobTransfer: grpc.handleUnaryCall<_sfdb_v1_CreateBlobTransferRequest__Output, _sfdb_v1_CreateBlobTransferResponse>;
  
  CreateIPAM: grpc.handleUnaryCall<_sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse>;
  
  /**
   * Objects: static values, one typed set of RPCs per object type so that the client is
   * typed and the per-operation counters tell the types apart.
   * Immutable after creation.
   */
  CreateInstance: grpc.handleUnaryCall<_sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse>;
  
  CreateNamespace: grpc.handleUnaryCall<_sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse>;
  
  CreateNetwork: grpc.handleUnaryCall<_sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse>;
  
  CreateNetworkInterface: grpc.handleUnaryCall<_sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse>;
  
  /**
   * Nodes
   */
  CreateNode: grpc.handleUnaryCall<_sfdb_v1_CreateNodeRequest__Output, _sfdb_v1_CreateNodeResponse>;
  
  CreateUpload: grpc.handleUnaryCall<_sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse>;
  
  DeleteAgentOperation: grpc.handleUnaryCall<_sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse>;
  
  DeleteArtifact: grpc.handleUnaryCall<_sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse>;
  
  DeleteBlob: grpc.handleUnaryCall<_sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse>;
  
  DeleteIPAM: grpc.handleUnaryCall<_sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse>;
  
  DeleteInstance: grpc.handleUnaryCall<_sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse>;
  
  DeleteNamespace: grpc.handleUnaryCall<_sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse>;
  
  DeleteNetwork: grpc.handleUnaryCall<_sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse>;
  
  DeleteNetworkInterface: grpc.handleUnaryCall<_sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse>;
  
  DeleteNode: grpc.handleUnaryCall<_sfdb_v1_DeleteNodeRequest__Output, _sfdb_v1_DeleteResponse>;
  
  DeleteObjectAttributes: grpc.handleUnaryCall<_sfdb_v1_DeleteObjectAttributesRequest__Output, _sfdb_v1_DeleteResponse>;
  
  DeleteObjectState: grpc.handleUnaryCall<_sfdb_v1_DeleteObjectStateRequest__Output, _sfdb_v1_DeleteResponse>;
  
  DeleteUpload: grpc.handleUnaryCall<_sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse>;
  
  Dequeue: grpc.handleUnaryCall<_sfdb_v1_DequeueRequest__Output, _sfdb_v1_DequeueResponse>;
  
  /**
   * Queue
   */
  Enqueue: grpc.handleUnaryCall<_sfdb_v1_EnqueueRequest__Output, _sfdb_v1_EnqueueResponse>;
  
  GetAddressesInUse: grpc.handleUnaryCall<_sfdb_v1_GetAddressesInUseRequest__Output, _sfdb_v1_GetAddressesInUseResponse>;
  
  GetAgentOperation: grpc.handleUnaryCall<_sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse>;
  
  GetArtifact: grpc.handleUnaryCall<_sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse>;
  
  GetBlob: grpc.handleUnaryCall<_sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse>;
  
  GetBlobTransfersForNode: grpc.handleUnaryCall<_sfdb_v1_GetBlobTransfersForNodeRequest__Output, _sfdb_v1_GetBlobTransfersForNodeResponse>;
  
  /**
   * The same without waiting, in pages: for jobs that read only what changed.
   */
  GetChangesSince: grpc.handleUnaryCall<_sfdb_v1_GetChangesSinceRequest__Output, _sfdb_v1_GetChangesSinceResponse>;
  
  /**
   * Cluster config
   */
  GetClusterConfig: grpc.handleUnaryCall<_sfdb_v1_GetClusterConfigRequest__Output, _sfdb_v1_GetClusterConfigResponse>;
  
  GetClusterStatus: grpc.handleUnaryCall<_sfdb_v1_GetClusterStatusRequest__Output, _sfdb_v1_GetClusterStatusResponse>;
  
  GetIPAM: grpc.handleUnaryCall<_sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse>;
  
  GetInstance: grpc.handleUnaryCall<_sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse>;
  
  GetLease: grpc.handleUnaryCall<_sfdb_v1_GetLeaseRequest__Output, _sfdb_v1_GetLeaseResponse>;
  
  GetNamespace: grpc.handleUnaryCall<_sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse>;
  
  GetNetwork: grpc.handleUnaryCall<_sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse>;
  
  GetNetworkInterface: grpc.handleUnaryCall<_sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse>;
  
  GetNode: grpc.handleUnaryCall<_sfdb_v1_GetNodeRequest__Output, _sfdb_v1_GetNodeResponse>;
  
  GetNodeByFqdn: grpc.handleUnaryCall<_sfdb_v1_GetNodeByFqdnRequest__Output, _sfdb_v1_GetNodeResponse>;
  
  GetNodeDaemonState: grpc.handleUnaryCall<_sfdb_v1_GetNodeDaemonStateRequest__Output, _sfdb_v1_GetNodeDaemonStateResponse>;
  
  GetObjectAttributes: grpc.handleUnaryCall<_sfdb_v1_GetObjectAttributesRequest__Output, _sfdb_v1_GetObjectAttributesResponse>;
  
  /**
   * Objects: mutable state and attributes, generic and keyed by type. Never cached.
   */
  GetObjectState: grpc.handleUnaryCall<_sfdb_v1_GetObjectStateRequest__Output, _sfdb_v1_GetObjectStateResponse>;
  
  GetQueueLength: grpc.handleUnaryCall<_sfdb_v1_GetQueueLengthRequest__Output, _sfdb_v1_GetQueueLengthResponse>;
  
  GetReferencesFrom: grpc.handleUnaryCall<_sfdb_v1_GetReferencesFromRequest__Output, _sfdb_v1_GetReferencesResponse>;
  
  GetReferencesTo: grpc.handleUnaryCall<_sfdb_v1_GetReferencesToRequest__Output, _sfdb_v1_GetReferencesResponse>;
  
  GetUpload: grpc.handleUnaryCall<_sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse>;
  
  GetWorkItem: grpc.handleUnaryCall<_sfdb_v1_GetWorkItemRequest__Output, _sfdb_v1_GetWorkItemResponse>;
  
  ListAgentOperations: grpc.handleUnaryCall<_sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse>;
  
  ListArtifacts: grpc.handleUnaryCall<_sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse>;
  
  ListBlobs: grpc.handleUnaryCall<_sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse>;
  
  ListIPAMs: grpc.handleUnaryCall<_sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse>;
  
  ListInstances: grpc.handleUnaryCall<_sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse>;
  
  ListLeases: grpc.handleUnaryCall<_sfdb_v1_ListLeasesRequest__Output, _sfdb_v1_ListLeasesResponse>;
  
  ListNamespaces: grpc.handleUnaryCall<_sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse>;
  
  ListNetworkInterfaces: grpc.handleUnaryCall<_sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse>;
  
  ListNetworks: grpc.handleUnaryCall<_sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse>;
  
  ListNodeDaemonStates: grpc.handleUnaryCall<_sfdb_v1_ListNodeDaemonStatesRequest__Output, _sfdb_v1_ListNodeDaemonStatesResponse>;
  
  ListNodes: grpc.handleUnaryCall<_sfdb_v1_ListNodesRequest__Output, _sfdb_v1_ListNodesResponse>;
  
  ListObjectEvents: grpc.handleUnaryCall<_sfdb_v1_ListObjectEventsRequest__Output, _sfdb_v1_ListObjectEventsResponse>;
  
  ListObjectsByState: grpc.handleUnaryCall<_sfdb_v1_ListObjectsByStateRequest__Output, _sfdb_v1_ListObjectsByStateResponse>;
  
  ListReservations: grpc.handleUnaryCall<_sfdb_v1_ListReservationsRequest__Output, _sfdb_v1_ListReservationsResponse>;
  
  ListStuckClaims: grpc.handleUnaryCall<_sfdb_v1_ListStuckClaimsRequest__Output, _sfdb_v1_ListStuckClaimsResponse>;
  
  ListUploads: grpc.handleUnaryCall<_sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse>;
  
  ListWorkItems: grpc.handleUnaryCall<_sfdb_v1_ListWorkItemsRequest__Output, _sfdb_v1_ListWorkItemsResponse>;
  
  NodeHeartbeat: grpc.handleUnaryCall<_sfdb_v1_NodeHeartbeatRequest__Output, _sfdb_v1_NodeHeartbeatResponse>;
  
  /**
   * Replica to replica, after a commit: which topics moved, up to which sequence numbers.
   * Never data: the receiver reads the rows itself. With no topics and no seqs, an
   * announcement: the sender has just registered, and the receiver reads the registry at
   * once and probes it from then on. Accepted only from a live registered replica
   * (PERMISSION_DENIED otherwise; UNAVAILABLE when the registry cannot be read to tell).
   */
  PokeChanges: grpc.handleUnaryCall<_sfdb_v1_PokeChangesRequest__Output, _sfdb_v1_PokeChangesResponse>;
  
  /**
   * Deletes change rows older than the retention (SFDB_CHANGEFEED_RETENTION_MS), oldest
   * first, in batches; its statements count as source `changefeed`. Then folds retired
   * counters older than SFDB_RETIRED_COUNTER_RETENTION_MS into the counter floor (source
   * `maintenance`; one indexed read when there are none).
   */
  PruneChanges: grpc.handleUnaryCall<_sfdb_v1_PruneChangesRequest__Output, _sfdb_v1_PruneChangesResponse>;
  
  PruneEvents: grpc.handleUnaryCall<_sfdb_v1_PruneEventsRequest__Output, _sfdb_v1_PruneEventsResponse>;
  
  /**
   * Events
   */
  RecordEvents: grpc.handleUnaryCall<_sfdb_v1_RecordEventsRequest__Output, _sfdb_v1_RecordEventsResponse>;
  
  /**
   * References between objects
   */
  RecordReference: grpc.handleUnaryCall<_sfdb_v1_RecordReferenceRequest__Output, _sfdb_v1_RecordReferenceResponse>;
  
  Release: grpc.handleUnaryCall<_sfdb_v1_ReleaseRequest__Output, _sfdb_v1_ReleaseResponse>;
  
  ReleaseAddress: grpc.handleUnaryCall<_sfdb_v1_ReleaseAddressRequest__Output, _sfdb_v1_ReleaseAddressResponse>;
  
  ReleaseLease: grpc.handleUnaryCall<_sfdb_v1_ReleaseLeaseRequest__Output, _sfdb_v1_ReleaseLeaseResponse>;
  
  RemoveReference: grpc.handleUnaryCall<_sfdb_v1_RemoveReferenceRequest__Output, _sfdb_v1_RemoveReferenceResponse>;
  
  RenewClaim: grpc.handleUnaryCall<_sfdb_v1_RenewClaimRequest__Output, _sfdb_v1_RenewClaimResponse>;
  
  RenewLease: grpc.handleUnaryCall<_sfdb_v1_RenewLeaseRequest__Output, _sfdb_v1_RenewLeaseResponse>;
  
  /**
   * Maintenance: singleton jobs run by the holder of a lease. The caller presents the
   * lease (name, holder, token); the tier checks it inside the job's transaction and
   * holds it shared until the job commits, so a deposed holder is Fenced and writes
   * nothing, and no new holder is granted the lease mid-job.
   */
  RequeueExpiredClaims: grpc.handleUnaryCall<_sfdb_v1_RequeueExpiredClaimsRequest__Output, _sfdb_v1_RequeueExpiredClaimsResponse>;
  
  /**
   * IPAM reservations
   */
  ReserveAddress: grpc.handleUnaryCall<_sfdb_v1_ReserveAddressRequest__Output, _sfdb_v1_ReserveAddressResponse>;
  
  Resolve: grpc.handleUnaryCall<_sfdb_v1_ResolveRequest__Output, _sfdb_v1_ResolveResponse>;
  
  SetClusterConfig: grpc.handleUnaryCall<_sfdb_v1_SetClusterConfigRequest__Output, _sfdb_v1_SetClusterConfigResponse>;
  
  /**
   * Daemon state
   */
  SetNodeDaemonState: grpc.handleUnaryCall<_sfdb_v1_SetNodeDaemonStateRequest__Output, _sfdb_v1_SetNodeDaemonStateResponse>;
  
  SetObjectAttributes: grpc.handleUnaryCall<_sfdb_v1_SetObjectAttributesRequest__Output, _sfdb_v1_SetObjectAttributesResponse>;
  
  SetObjectState: grpc.handleUnaryCall<_sfdb_v1_SetObjectStateRequest__Output, _sfdb_v1_SetObjectStateResponse>;
  
  SweepReplicaRegistry: grpc.handleUnaryCall<_sfdb_v1_SweepReplicaRegistryRequest__Output, _sfdb_v1_SweepReplicaRegistryResponse>;
  
  UpdateArtifact: grpc.handleUnaryCall<_sfdb_v1_UpdateStaticObjectRequest__Output, _sfdb_v1_UpdateStaticObjectResponse>;
  
  UpdateBlob: grpc.handleUnaryCall<_sfdb_v1_UpdateStaticObjectRequest__Output, _sfdb_v1_UpdateStaticObjectResponse>;
  
  UpdateBlobTransfer: grpc.handleUnaryCall<_sfdb_v1_UpdateBlobTransferRequest__Output, _sfdb_v1_UpdateBlobTransferResponse>;
  
  UpdateNamespace: grpc.handleUnaryCall<_sfdb_v1_UpdateStaticObjectRequest__Output, _sfdb_v1_UpdateStaticObjectResponse>;
  
  UpdateNode: grpc.handleUnaryCall<_sfdb_v1_UpdateNodeRequest__Output, _sfdb_v1_UpdateNodeResponse>;
  
  UpdateUpload: grpc.handleUnaryCall<_sfdb_v1_UpdateStaticObjectRequest__Output, _sfdb_v1_UpdateStaticObjectResponse>;
  
  /**
   * Change feed. Every mutating RPC appends change rows (topic, object type, id, kind) in
   * the transaction of its write; these answer ids and kinds only, never payloads: the
   * caller re-reads what changed through its normal, scoped read. Topics are built by
   * proto/topics.ts. A cursor is opaque text: pass back the one last answered.
   * 
   * WaitForChanges answers at once when a change on `topics` is past `cursor`, else holds
   * until one arrives or `timeout_ms` passes (an answer with no changes). An empty cursor
   * answers at once with the current cursor (read what you care about after that).
   * `resync`: the cursor is older than this replica's window, or above everything this
   * database has committed (a database restored from a backup); re-read everything the
   * topics cover and continue from the new cursor. RESOURCE_EXHAUSTED (with
   * grpc-retry-pushback-ms) when the replica holds its cap of waiters.
   */
  WaitForChanges: grpc.handleUnaryCall<_sfdb_v1_WaitForChangesRequest__Output, _sfdb_v1_WaitForChangesResponse>;
  
  /**
   * Replica health as this replica sees it: the gRPC addresses (as registered) of the live
   * peers that have stopped answering its probes for longer than its
   * SFDB_PEER_UNRESPONSIVE_MS (frozen, stopped, cut off by the network). A client holds
   * one of these on a replica other than its long-poll's and moves its long-poll off a
   * replica it names, so a frozen replica cannot keep it deaf. Answers at once when the
   * set's `version` is not `known`, else holds until the set changes or `timeout_ms`
   * passes. The empty set's version is "", so a first watch of a healthy cluster holds.
   */
  WatchReplicas: grpc.handleUnaryCall<_sfdb_v1_WatchReplicasRequest__Output, _sfdb_v1_WatchReplicasResponse>;
  
}

export interface DatabaseDefinition extends grpc.ServiceDefinition {
  AcquireLease: MethodDefinition<_sfdb_v1_AcquireLeaseRequest, _sfdb_v1_AcquireLeaseResponse, _sfdb_v1_AcquireLeaseRequest__Output, _sfdb_v1_AcquireLeaseResponse__Output>
  CreateAgentOperation: MethodDefinition<_sfdb_v1_CreateStaticObjectRequest, _sfdb_v1_CreateStaticObjectResponse, _sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse__Output>
  CreateArtifact: MethodDefinition<_sfdb_v1_CreateStaticObjectRequest, _sfdb_v1_CreateStaticObjectResponse, _sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse__Output>
  CreateBlob: MethodDefinition<_sfdb_v1_CreateStaticObjectRequest, _sfdb_v1_CreateStaticObjectResponse, _sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse__Output>
  CreateBlobTransfer: MethodDefinition<_sfdb_v1_CreateBlobTransferRequest, _sfdb_v1_CreateBlobTransferResponse, _sfdb_v1_CreateBlobTransferRequest__Output, _sfdb_v1_CreateBlobTransferResponse__Output>
  CreateIPAM: MethodDefinition<_sfdb_v1_CreateStaticObjectRequest, _sfdb_v1_CreateStaticObjectResponse, _sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse__Output>
  CreateInstance: MethodDefinition<_sfdb_v1_CreateStaticObjectRequest, _sfdb_v1_CreateStaticObjectResponse, _sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse__Output>
  CreateNamespace: MethodDefinition<_sfdb_v1_CreateStaticObjectRequest, _sfdb_v1_CreateStaticObjectResponse, _sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse__Output>
  CreateNetwork: MethodDefinition<_sfdb_v1_CreateStaticObjectRequest, _sfdb_v1_CreateStaticObjectResponse, _sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse__Output>
  CreateNetworkInterface: MethodDefinition<_sfdb_v1_CreateStaticObjectRequest, _sfdb_v1_CreateStaticObjectResponse, _sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse__Output>
  CreateNode: MethodDefinition<_sfdb_v1_CreateNodeRequest, _sfdb_v1_CreateNodeResponse, _sfdb_v1_CreateNodeRequest__Output, _sfdb_v1_CreateNodeResponse__Output>
  CreateUpload: MethodDefinition<_sfdb_v1_CreateStaticObjectRequest, _sfdb_v1_CreateStaticObjectResponse, _sfdb_v1_CreateStaticObjectRequest__Output, _sfdb_v1_CreateStaticObjectResponse__Output>
  DeleteAgentOperation: MethodDefinition<_sfdb_v1_DeleteStaticObjectRequest, _sfdb_v1_DeleteResponse, _sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse__Output>
  DeleteArtifact: MethodDefinition<_sfdb_v1_DeleteStaticObjectRequest, _sfdb_v1_DeleteResponse, _sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse__Output>
  DeleteBlob: MethodDefinition<_sfdb_v1_DeleteStaticObjectRequest, _sfdb_v1_DeleteResponse, _sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse__Output>
  DeleteIPAM: MethodDefinition<_sfdb_v1_DeleteStaticObjectRequest, _sfdb_v1_DeleteResponse, _sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse__Output>
  DeleteInstance: MethodDefinition<_sfdb_v1_DeleteStaticObjectRequest, _sfdb_v1_DeleteResponse, _sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse__Output>
  DeleteNamespace: MethodDefinition<_sfdb_v1_DeleteStaticObjectRequest, _sfdb_v1_DeleteResponse, _sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse__Output>
  DeleteNetwork: MethodDefinition<_sfdb_v1_DeleteStaticObjectRequest, _sfdb_v1_DeleteResponse, _sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse__Output>
  DeleteNetworkInterface: MethodDefinition<_sfdb_v1_DeleteStaticObjectRequest, _sfdb_v1_DeleteResponse, _sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse__Output>
  DeleteNode: MethodDefinition<_sfdb_v1_DeleteNodeRequest, _sfdb_v1_DeleteResponse, _sfdb_v1_DeleteNodeRequest__Output, _sfdb_v1_DeleteResponse__Output>
  DeleteObjectAttributes: MethodDefinition<_sfdb_v1_DeleteObjectAttributesRequest, _sfdb_v1_DeleteResponse, _sfdb_v1_DeleteObjectAttributesRequest__Output, _sfdb_v1_DeleteResponse__Output>
  DeleteObjectState: MethodDefinition<_sfdb_v1_DeleteObjectStateRequest, _sfdb_v1_DeleteResponse, _sfdb_v1_DeleteObjectStateRequest__Output, _sfdb_v1_DeleteResponse__Output>
  DeleteUpload: MethodDefinition<_sfdb_v1_DeleteStaticObjectRequest, _sfdb_v1_DeleteResponse, _sfdb_v1_DeleteStaticObjectRequest__Output, _sfdb_v1_DeleteResponse__Output>
  Dequeue: MethodDefinition<_sfdb_v1_DequeueRequest, _sfdb_v1_DequeueResponse, _sfdb_v1_DequeueRequest__Output, _sfdb_v1_DequeueResponse__Output>
  Enqueue: MethodDefinition<_sfdb_v1_EnqueueRequest, _sfdb_v1_EnqueueResponse, _sfdb_v1_EnqueueRequest__Output, _sfdb_v1_EnqueueResponse__Output>
  GetAddressesInUse: MethodDefinition<_sfdb_v1_GetAddressesInUseRequest, _sfdb_v1_GetAddressesInUseResponse, _sfdb_v1_GetAddressesInUseRequest__Output, _sfdb_v1_GetAddressesInUseResponse__Output>
  GetAgentOperation: MethodDefinition<_sfdb_v1_GetStaticObjectRequest, _sfdb_v1_GetStaticObjectResponse, _sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse__Output>
  GetArtifact: MethodDefinition<_sfdb_v1_GetStaticObjectRequest, _sfdb_v1_GetStaticObjectResponse, _sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse__Output>
  GetBlob: MethodDefinition<_sfdb_v1_GetStaticObjectRequest, _sfdb_v1_GetStaticObjectResponse, _sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse__Output>
  GetBlobTransfersForNode: MethodDefinition<_sfdb_v1_GetBlobTransfersForNodeRequest, _sfdb_v1_GetBlobTransfersForNodeResponse, _sfdb_v1_GetBlobTransfersForNodeRequest__Output, _sfdb_v1_GetBlobTransfersForNodeResponse__Output>
  GetChangesSince: MethodDefinition<_sfdb_v1_GetChangesSinceRequest, _sfdb_v1_GetChangesSinceResponse, _sfdb_v1_GetChangesSinceRequest__Output, _sfdb_v1_GetChangesSinceResponse__Output>
  GetClusterConfig: MethodDefinition<_sfdb_v1_GetClusterConfigRequest, _sfdb_v1_GetClusterConfigResponse, _sfdb_v1_GetClusterConfigRequest__Output, _sfdb_v1_GetClusterConfigResponse__Output>
  GetClusterStatus: MethodDefinition<_sfdb_v1_GetClusterStatusRequest, _sfdb_v1_GetClusterStatusResponse, _sfdb_v1_GetClusterStatusRequest__Output, _sfdb_v1_GetClusterStatusResponse__Output>
  GetIPAM: MethodDefinition<_sfdb_v1_GetStaticObjectRequest, _sfdb_v1_GetStaticObjectResponse, _sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse__Output>
  GetInstance: MethodDefinition<_sfdb_v1_GetStaticObjectRequest, _sfdb_v1_GetStaticObjectResponse, _sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse__Output>
  GetLease: MethodDefinition<_sfdb_v1_GetLeaseRequest, _sfdb_v1_GetLeaseResponse, _sfdb_v1_GetLeaseRequest__Output, _sfdb_v1_GetLeaseResponse__Output>
  GetNamespace: MethodDefinition<_sfdb_v1_GetStaticObjectRequest, _sfdb_v1_GetStaticObjectResponse, _sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse__Output>
  GetNetwork: MethodDefinition<_sfdb_v1_GetStaticObjectRequest, _sfdb_v1_GetStaticObjectResponse, _sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse__Output>
  GetNetworkInterface: MethodDefinition<_sfdb_v1_GetStaticObjectRequest, _sfdb_v1_GetStaticObjectResponse, _sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse__Output>
  GetNode: MethodDefinition<_sfdb_v1_GetNodeRequest, _sfdb_v1_GetNodeResponse, _sfdb_v1_GetNodeRequest__Output, _sfdb_v1_GetNodeResponse__Output>
  GetNodeByFqdn: MethodDefinition<_sfdb_v1_GetNodeByFqdnRequest, _sfdb_v1_GetNodeResponse, _sfdb_v1_GetNodeByFqdnRequest__Output, _sfdb_v1_GetNodeResponse__Output>
  GetNodeDaemonState: MethodDefinition<_sfdb_v1_GetNodeDaemonStateRequest, _sfdb_v1_GetNodeDaemonStateResponse, _sfdb_v1_GetNodeDaemonStateRequest__Output, _sfdb_v1_GetNodeDaemonStateResponse__Output>
  GetObjectAttributes: MethodDefinition<_sfdb_v1_GetObjectAttributesRequest, _sfdb_v1_GetObjectAttributesResponse, _sfdb_v1_GetObjectAttributesRequest__Output, _sfdb_v1_GetObjectAttributesResponse__Output>
  GetObjectState: MethodDefinition<_sfdb_v1_GetObjectStateRequest, _sfdb_v1_GetObjectStateResponse, _sfdb_v1_GetObjectStateRequest__Output, _sfdb_v1_GetObjectStateResponse__Output>
  GetQueueLength: MethodDefinition<_sfdb_v1_GetQueueLengthRequest, _sfdb_v1_GetQueueLengthResponse, _sfdb_v1_GetQueueLengthRequest__Output, _sfdb_v1_GetQueueLengthResponse__Output>
  GetReferencesFrom: MethodDefinition<_sfdb_v1_GetReferencesFromRequest, _sfdb_v1_GetReferencesResponse, _sfdb_v1_GetReferencesFromRequest__Output, _sfdb_v1_GetReferencesResponse__Output>
  GetReferencesTo: MethodDefinition<_sfdb_v1_GetReferencesToRequest, _sfdb_v1_GetReferencesResponse, _sfdb_v1_GetReferencesToRequest__Output, _sfdb_v1_GetReferencesResponse__Output>
  GetUpload: MethodDefinition<_sfdb_v1_GetStaticObjectRequest, _sfdb_v1_GetStaticObjectResponse, _sfdb_v1_GetStaticObjectRequest__Output, _sfdb_v1_GetStaticObjectResponse__Output>
  GetWorkItem: MethodDefinition<_sfdb_v1_GetWorkItemRequest, _sfdb_v1_GetWorkItemResponse, _sfdb_v1_GetWorkItemRequest__Output, _sfdb_v1_GetWorkItemResponse__Output>
  ListAgentOperations: MethodDefinition<_sfdb_v1_ListStaticObjectsRequest, _sfdb_v1_ListStaticObjectsResponse, _sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse__Output>
  ListArtifacts: MethodDefinition<_sfdb_v1_ListStaticObjectsRequest, _sfdb_v1_ListStaticObjectsResponse, _sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse__Output>
  ListBlobs: MethodDefinition<_sfdb_v1_ListStaticObjectsRequest, _sfdb_v1_ListStaticObjectsResponse, _sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse__Output>
  ListIPAMs: MethodDefinition<_sfdb_v1_ListStaticObjectsRequest, _sfdb_v1_ListStaticObjectsResponse, _sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse__Output>
  ListInstances: MethodDefinition<_sfdb_v1_ListStaticObjectsRequest, _sfdb_v1_ListStaticObjectsResponse, _sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse__Output>
  ListLeases: MethodDefinition<_sfdb_v1_ListLeasesRequest, _sfdb_v1_ListLeasesResponse, _sfdb_v1_ListLeasesRequest__Output, _sfdb_v1_ListLeasesResponse__Output>
  ListNamespaces: MethodDefinition<_sfdb_v1_ListStaticObjectsRequest, _sfdb_v1_ListStaticObjectsResponse, _sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse__Output>
  ListNetworkInterfaces: MethodDefinition<_sfdb_v1_ListStaticObjectsRequest, _sfdb_v1_ListStaticObjectsResponse, _sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse__Output>
  ListNetworks: MethodDefinition<_sfdb_v1_ListStaticObjectsRequest, _sfdb_v1_ListStaticObjectsResponse, _sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse__Output>
  ListNodeDaemonStates: MethodDefinition<_sfdb_v1_ListNodeDaemonStatesRequest, _sfdb_v1_ListNodeDaemonStatesResponse, _sfdb_v1_ListNodeDaemonStatesRequest__Output, _sfdb_v1_ListNodeDaemonStatesResponse__Output>
  ListNodes: MethodDefinition<_sfdb_v1_ListNodesRequest, _sfdb_v1_ListNodesResponse, _sfdb_v1_ListNodesRequest__Output, _sfdb_v1_ListNodesResponse__Output>
  ListObjectEvents: MethodDefinition<_sfdb_v1_ListObjectEventsRequest, _sfdb_v1_ListObjectEventsResponse, _sfdb_v1_ListObjectEventsRequest__Output, _sfdb_v1_ListObjectEventsResponse__Output>
  ListObjectsByState: MethodDefinition<_sfdb_v1_ListObjectsByStateRequest, _sfdb_v1_ListObjectsByStateResponse, _sfdb_v1_ListObjectsByStateRequest__Output, _sfdb_v1_ListObjectsByStateResponse__Output>
  ListReservations: MethodDefinition<_sfdb_v1_ListReservationsRequest, _sfdb_v1_ListReservationsResponse, _sfdb_v1_ListReservationsRequest__Output, _sfdb_v1_ListReservationsResponse__Output>
  ListStuckClaims: MethodDefinition<_sfdb_v1_ListStuckClaimsRequest, _sfdb_v1_ListStuckClaimsResponse, _sfdb_v1_ListStuckClaimsRequest__Output, _sfdb_v1_ListStuckClaimsResponse__Output>
  ListUploads: MethodDefinition<_sfdb_v1_ListStaticObjectsRequest, _sfdb_v1_ListStaticObjectsResponse, _sfdb_v1_ListStaticObjectsRequest__Output, _sfdb_v1_ListStaticObjectsResponse__Output>
  ListWorkItems: MethodDefinition<_sfdb_v1_ListWorkItemsRequest, _sfdb_v1_ListWorkItemsResponse, _sfdb_v1_ListWorkItemsRequest__Output, _sfdb_v1_ListWorkItemsResponse__Output>
  NodeHeartbeat: MethodDefinition<_sfdb_v1_NodeHeartbeatRequest, _sfdb_v1_NodeHeartbeatResponse, _sfdb_v1_NodeHeartbeatRequest__Output, _sfdb_v1_NodeHeartbeatResponse__Output>
  PokeChanges: MethodDefinition<_sfdb_v1_PokeChangesRequest, _sfdb_v1_PokeChangesResponse, _sfdb_v1_PokeChangesRequest__Output, _sfdb_v1_PokeChangesResponse__Output>
  PruneChanges: MethodDefinition<_sfdb_v1_PruneChangesRequest, _sfdb_v1_PruneChangesResponse, _sfdb_v1_PruneChangesRequest__Output, _sfdb_v1_PruneChangesResponse__Output>
  PruneEvents: MethodDefinition<_sfdb_v1_PruneEventsRequest, _sfdb_v1_PruneEventsResponse, _sfdb_v1_PruneEventsRequest__Output, _sfdb_v1_PruneEventsResponse__Output>
  RecordEvents: MethodDefinition<_sfdb_v1_RecordEventsRequest, _sfdb_v1_RecordEventsResponse, _sfdb_v1_RecordEventsRequest__Output, _sfdb_v1_RecordEventsResponse__Output>
  RecordReference: MethodDefinition<_sfdb_v1_RecordReferenceRequest, _sfdb_v1_RecordReferenceResponse, _sfdb_v1_RecordReferenceRequest__Output, _sfdb_v1_RecordReferenceResponse__Output>
  Release: MethodDefinition<_sfdb_v1_ReleaseRequest, _sfdb_v1_ReleaseResponse, _sfdb_v1_ReleaseRequest__Output, _sfdb_v1_ReleaseResponse__Output>
  ReleaseAddress: MethodDefinition<_sfdb_v1_ReleaseAddressRequest, _sfdb_v1_ReleaseAddressResponse, _sfdb_v1_ReleaseAddressRequest__Output, _sfdb_v1_ReleaseAddressResponse__Output>
  ReleaseLease: MethodDefinition<_sfdb_v1_ReleaseLeaseRequest, _sfdb_v1_ReleaseLeaseResponse, _sfdb_v1_ReleaseLeaseRequest__Output, _sfdb_v1_ReleaseLeaseResponse__Output>
  RemoveReference: MethodDefinition<_sfdb_v1_RemoveReferenceRequest, _sfdb_v1_RemoveReferenceResponse, _sfdb_v1_RemoveReferenceRequest__Output, _sfdb_v1_RemoveReferenceResponse__Output>
  RenewClaim: MethodDefinition<_sfdb_v1_RenewClaimRequest, _sfdb_v1_RenewClaimResponse, _sfdb_v1_RenewClaimRequest__Output, _sfdb_v1_RenewClaimResponse__Output>
  RenewLease: MethodDefinition<_sfdb_v1_RenewLeaseRequest, _sfdb_v1_RenewLeaseResponse, _sfdb_v1_RenewLeaseRequest__Output, _sfdb_v1_RenewLeaseResponse__Output>
  RequeueExpiredClaims: MethodDefinition<_sfdb_v1_RequeueExpiredClaimsRequest, _sfdb_v1_RequeueExpiredClaimsResponse, _sfdb_v1_RequeueExpiredClaimsRequest__Output, _sfdb_v1_RequeueExpiredClaimsResponse__Output>
  ReserveAddress: MethodDefinition<_sfdb_v1_ReserveAddressRequest, _sfdb_v1_ReserveAddressResponse, _sfdb_v1_ReserveAddressRequest__Output, _sfdb_v1_ReserveAddressResponse__Output>
  Resolve: MethodDefinition<_sfdb_v1_ResolveRequest, _sfdb_v1_ResolveResponse, _sfdb_v1_ResolveRequest__Output, _sfdb_v1_ResolveResponse__Output>
  SetClusterConfig: MethodDefinition<_sfdb_v1_SetClusterConfigRequest, _sfdb_v1_SetClusterConfigResponse, _sfdb_v1_SetClusterConfigRequest__Output, _sfdb_v1_SetClusterConfigResponse__Output>
  SetNodeDaemonState: MethodDefinition<_sfdb_v1_SetNodeDaemonStateRequest, _sfdb_v1_SetNodeDaemonStateResponse, _sfdb_v1_SetNodeDaemonStateRequest__Output, _sfdb_v1_SetNodeDaemonStateResponse__Output>
  SetObjectAttributes: MethodDefinition<_sfdb_v1_SetObjectAttributesRequest, _sfdb_v1_SetObjectAttributesResponse, _sfdb_v1_SetObjectAttributesRequest__Output, _sfdb_v1_SetObjectAttributesResponse__Output>
  SetObjectState: MethodDefinition<_sfdb_v1_SetObjectStateRequest, _sfdb_v1_SetObjectStateResponse, _sfdb_v1_SetObjectStateRequest__Output, _sfdb_v1_SetObjectStateResponse__Output>
  SweepReplicaRegistry: MethodDefinition<_sfdb_v1_SweepReplicaRegistryRequest, _sfdb_v1_SweepReplicaRegistryResponse, _sfdb_v1_SweepReplicaRegistryRequest__Output, _sfdb_v1_SweepReplicaRegistryResponse__Output>
  UpdateArtifact: MethodDefinition<_sfdb_v1_UpdateStaticObjectRequest, _sfdb_v1_UpdateStaticObjectResponse, _sfdb_v1_UpdateStaticObjectRequest__Output, _sfdb_v1_UpdateStaticObjectResponse__Output>
  UpdateBlob: MethodDefinition<_sfdb_v1_UpdateStaticObjectRequest, _sfdb_v1_UpdateStaticObjectResponse, _sfdb_v1_UpdateStaticObjectRequest__Output, _sfdb_v1_UpdateStaticObjectResponse__Output>
  UpdateBlobTransfer: MethodDefinition<_sfdb_v1_UpdateBlobTransferRequest, _sfdb_v1_UpdateBlobTransferResponse, _sfdb_v1_UpdateBlobTransferRequest__Output, _sfdb_v1_UpdateBlobTransferResponse__Output>
  UpdateNamespace: MethodDefinition<_sfdb_v1_UpdateStaticObjectRequest, _sfdb_v1_UpdateStaticObjectResponse, _sfdb_v1_UpdateStaticObjectRequest__Output, _sfdb_v1_UpdateStaticObjectResponse__Output>
  UpdateNode: MethodDefinition<_sfdb_v1_UpdateNodeRequest, _sfdb_v1_UpdateNodeResponse, _sfdb_v1_UpdateNodeRequest__Output, _sfdb_v1_UpdateNodeResponse__Output>
  UpdateUpload: MethodDefinition<_sfdb_v1_UpdateStaticObjectRequest, _sfdb_v1_UpdateStaticObjectResponse, _sfdb_v1_UpdateStaticObjectRequest__Output, _sfdb_v1_UpdateStaticObjectResponse__Output>
  WaitForChanges: MethodDefinition<_sfdb_v1_WaitForChangesRequest, _sfdb_v1_WaitForChangesResponse, _sfdb_v1_WaitForChangesRequest__Output, _sfdb_v1_WaitForChangesResponse__Output>
  WatchReplicas: MethodDefinition<_sfdb_v1_WatchReplicasRequest, _sfdb_v1_WatchReplicasResponse, _sfdb_v1_WatchReplicasRequest__Output, _sfdb_v1_WatchReplicasResponse__Output>
}
