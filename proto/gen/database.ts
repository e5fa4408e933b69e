import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AcquireLeaseRequest as _sfdb_v1_AcquireLeaseRequest, AcquireLeaseRequest__Output as _sfdb_v1_AcquireLeaseRequest__Output } from './sfdb/v1/AcquireLeaseRequest.js';
import type { AcquireLeaseResponse as _sfdb_v1_AcquireLeaseResponse, AcquireLeaseResponse__Output as _sfdb_v1_AcquireLeaseResponse__Output } from './sfdb/v1/AcquireLeaseResponse.js';
import type { BlobTransfer as _sfdb_v1_BlobTransfer, BlobTransfer__Output as _sfdb_v1_BlobTransfer__Output } from './sfdb/v1/BlobTransfer.js';
import type { Change as _sfdb_v1_Change, Change__Output as _sfdb_v1_Change__Output } from './sfdb/v1/Change.js';
import type { Claim as _sfdb_v1_Claim, Claim__Output as _sfdb_v1_Claim__Output } from './sfdb/v1/Claim.js';
import type { CreateBlobTransferRequest as _sfdb_v1_CreateBlobTransferRequest, CreateBlobTransferRequest__Output as _sfdb_v1_CreateBlobTransferRequest__Output } from './sfdb/v1/CreateBlobTransferRequest.js';
import type { CreateBlobTransferResponse as _sfdb_v1_CreateBlobTransferResponse, CreateBlobTransferResponse__Output as _sfdb_v1_CreateBlobTransferResponse__Output } from './sfdb/v1/CreateBlobTransferResponse.js';
import type { CreateNodeRequest as _sfdb_v1_CreateNodeRequest, CreateNodeRequest__Output as _sfdb_v1_CreateNodeRequest__Output } from './sfdb/v1/CreateNodeRequest.js';
import type { CreateNodeResponse as _sfdb_v1_CreateNodeResponse, CreateNodeResponse__Output as _sfdb_v1_CreateNodeResponse__Output } from './sfdb/v1/CreateNodeResponse.js';
import type { CreateStaticObjectRequest as _sfdb_v1_CreateStaticObjectRequest, CreateStaticObjectRequest__Output as _sfdb_v1_CreateStaticObjectRequest__Output } from './sfdb/v1/CreateStaticObjectRequest.js';
import type { CreateStaticObjectResponse as _sfdb_v1_CreateStaticObjectResponse, CreateStaticObjectResponse__Output as _sfdb_v1_CreateStaticObjectResponse__Output } from './sfdb/v1/CreateStaticObjectResponse.js';
import type { DatabaseClient as _sfdb_v1_DatabaseClient, DatabaseDefinition as _sfdb_v1_DatabaseDefinition } from './sfdb/v1/Database.js';
import type { DeleteNodeRequest as _sfdb_v1_DeleteNodeRequest, DeleteNodeRequest__Output as _sfdb_v1_DeleteNodeRequest__Output } from './sfdb/v1/DeleteNodeRequest.js';
import type { DeleteObjectAttributesRequest as _sfdb_v1_DeleteObjectAttributesRequest, DeleteObjectAttributesRequest__Output as _sfdb_v1_DeleteObjectAttributesRequest__Output } from './sfdb/v1/DeleteObjectAttributesRequest.js';
import type { DeleteObjectStateRequest as _sfdb_v1_DeleteObjectStateRequest, DeleteObjectStateRequest__Output as _sfdb_v1_DeleteObjectStateRequest__Output } from './sfdb/v1/DeleteObjectStateRequest.js';
import type { DeleteResponse as _sfdb_v1_DeleteResponse, DeleteResponse__Output as _sfdb_v1_DeleteResponse__Output } from './sfdb/v1/DeleteResponse.js';
import type { DeleteStaticObjectRequest as _sfdb_v1_DeleteStaticObjectRequest, DeleteStaticObjectRequest__Output as _sfdb_v1_DeleteStaticObjectRequest__Output } from './sfdb/v1/DeleteStaticObjectRequest.js';
import type { DequeueRequest as _sfdb_v1_DequeueRequest, DequeueRequest__Output as _sfdb_v1_DequeueRequest__Output } from './sfdb/v1/DequeueRequest.js';
import type { DequeueResponse as _sfdb_v1_DequeueResponse, DequeueResponse__Output as _sfdb_v1_DequeueResponse__Output } from './sfdb/v1/DequeueResponse.js';
import type { EnqueueRequest as _sfdb_v1_EnqueueRequest, EnqueueRequest__Output as _sfdb_v1_EnqueueRequest__Output } from './sfdb/v1/EnqueueRequest.js';
import type { EnqueueResponse as _sfdb_v1_EnqueueResponse, EnqueueResponse__Output as _sfdb_v1_EnqueueResponse__Output } from './sfdb/v1/EnqueueResponse.js';
import type { Event as _sfdb_v1_Event, Event__Output as _sfdb_v1_Event__Output } from './sfdb/v1/Event.js';
import type { EventInput as _sfdb_v1_EventInput, EventInput__Output as _sfdb_v1_EventInput__Output } from './sfdb/v1/EventInput.js';
import type { GetAddressesInUseRequest as _sfdb_v1_GetAddressesInUseRequest, GetAddressesInUseRequest__Output as _sfdb_v1_GetAddressesInUseRequest__Output } from './sfdb/v1/GetAddressesInUseRequest.js';
import type { GetAddressesInUseResponse as _sfdb_v1_GetAddressesInUseResponse, GetAddressesInUseResponse__Output as _sfdb_v1_GetAddressesInUseResponse__Output } from './sfdb/v1/GetAddressesInUseResponse.js';
import type { GetBlobTransfersForNodeRequest as _sfdb_v1_GetBlobTransfersForNodeRequest, GetBlobTransfersForNodeRequest__Output as _sfdb_v1_GetBlobTransfersForNodeRequest__Output } from './sfdb/v1/GetBlobTransfersForNodeRequest.js';
import type { GetBlobTransfersForNodeResponse as _sfdb_v1_GetBlobTransfersForNodeResponse, GetBlobTransfersForNodeResponse__Output as _sfdb_v1_GetBlobTransfersForNodeResponse__Output } from './sfdb/v1/GetBlobTransfersForNodeResponse.js';
import type { GetChangesSinceRequest as _sfdb_v1_GetChangesSinceRequest, GetChangesSinceRequest__Output as _sfdb_v1_GetChangesSinceRequest__Output } from './sfdb/v1/GetChangesSinceRequest.js';
import type { GetChangesSinceResponse as _sfdb_v1_GetChangesSinceResponse, GetChangesSinceResponse__Output as _sfdb_v1_GetChangesSinceResponse__Output } from './sfdb/v1/GetChangesSinceResponse.js';
import type { GetClusterConfigRequest as _sfdb_v1_GetClusterConfigRequest, GetClusterConfigRequest__Output as _sfdb_v1_GetClusterConfigRequest__Output } from './sfdb/v1/GetClusterConfigRequest.js';
import type { GetClusterConfigResponse as _sfdb_v1_GetClusterConfigResponse, GetClusterConfigResponse__Output as _sfdb_v1_GetClusterConfigResponse__Output } from './sfdb/v1/GetClusterConfigResponse.js';
import type { GetClusterStatusRequest as _sfdb_v1_GetClusterStatusRequest, GetClusterStatusRequest__Output as _sfdb_v1_GetClusterStatusRequest__Output } from './sfdb/v1/GetClusterStatusRequest.js';
import type { GetClusterStatusResponse as _sfdb_v1_GetClusterStatusResponse, GetClusterStatusResponse__Output as _sfdb_v1_GetClusterStatusResponse__Output } from './sfdb/v1/GetClusterStatusResponse.js';
import type { GetLeaseRequest as _sfdb_v1_GetLeaseRequest, GetLeaseRequest__Output as _sfdb_v1_GetLeaseRequest__Output } from './sfdb/v1/GetLeaseRequest.js';
import type { GetLeaseResponse as _sfdb_v1_GetLeaseResponse, GetLeaseResponse__Output as _sfdb_v1_GetLeaseResponse__Output } from './sfdb/v1/GetLeaseResponse.js';
import type { GetNodeByFqdnRequest as _sfdb_v1_GetNodeByFqdnRequest, GetNodeByFqdnRequest__Output as _sfdb_v1_GetNodeByFqdnRequest__Output } from './sfdb/v1/GetNodeByFqdnRequest.js';
import type { GetNodeDaemonStateRequest as _sfdb_v1_GetNodeDaemonStateRequest, GetNodeDaemonStateRequest__Output as _sfdb_v1_GetNodeDaemonStateRequest__Output } from './sfdb/v1/GetNodeDaemonStateRequest.js';
import type { GetNodeDaemonStateResponse as _sfdb_v1_GetNodeDaemonStateResponse, GetNodeDaemonStateResponse__Output as _sfdb_v1_GetNodeDaemonStateResponse__Output } from './sfdb/v1/GetNodeDaemonStateResponse.js';
import type { GetNodeRequest as _sfdb_v1_GetNodeRequest, GetNodeRequest__Output as _sfdb_v1_GetNodeRequest__Output } from './sfdb/v1/GetNodeRequest.js';
import type { GetNodeResponse as _sfdb_v1_GetNodeResponse, GetNodeResponse__Output as _sfdb_v1_GetNodeResponse__Output } from './sfdb/v1/GetNodeResponse.js';
import type { GetObjectAttributesRequest as _sfdb_v1_GetObjectAttributesRequest, GetObjectAttributesRequest__Output as _sfdb_v1_GetObjectAttributesRequest__Output } from './sfdb/v1/GetObjectAttributesRequest.js';
import type { GetObjectAttributesResponse as _sfdb_v1_GetObjectAttributesResponse, GetObjectAttributesResponse__Output as _sfdb_v1_GetObjectAttributesResponse__Output } from './sfdb/v1/GetObjectAttributesResponse.js';
import type { GetObjectStateRequest as _sfdb_v1_GetObjectStateRequest, GetObjectStateRequest__Output as _sfdb_v1_GetObjectStateRequest__Output } from './sfdb/v1/GetObjectStateRequest.js';
import type { GetObjectStateResponse as _sfdb_v1_GetObjectStateResponse, GetObjectStateResponse__Output as _sfdb_v1_GetObjectStateResponse__Output } from './sfdb/v1/GetObjectStateResponse.js';
import type { GetQueueLengthRequest as _sfdb_v1_GetQueueLengthRequest, GetQueueLengthRequest__Output as _sfdb_v1_GetQueueLengthRequest__Output } from './sfdb/v1/GetQueueLengthRequest.js';
import type { GetQueueLengthResponse as _sfdb_v1_GetQueueLengthResponse, GetQueueLengthResponse__Output as _sfdb_v1_GetQueueLengthResponse__Output } from './sfdb/v1/GetQueueLengthResponse.js';
import type { GetReferencesFromRequest as _sfdb_v1_GetReferencesFromRequest, GetReferencesFromRequest__Output as _sfdb_v1_GetReferencesFromRequest__Output } from './sfdb/v1/GetReferencesFromRequest.js';
import type { GetReferencesResponse as _sfdb_v1_GetReferencesResponse, GetReferencesResponse__Output as _sfdb_v1_GetReferencesResponse__Output } from './sfdb/v1/GetReferencesResponse.js';
import type { GetReferencesToRequest as _sfdb_v1_GetReferencesToRequest, GetReferencesToRequest__Output as _sfdb_v1_GetReferencesToRequest__Output } from './sfdb/v1/GetReferencesToRequest.js';
import type { GetStaticObjectRequest as _sfdb_v1_GetStaticObjectRequest, GetStaticObjectRequest__Output as _sfdb_v1_GetStaticObjectRequest__Output } from './sfdb/v1/GetStaticObjectRequest.js';
import type { GetStaticObjectResponse as _sfdb_v1_GetStaticObjectResponse, GetStaticObjectResponse__Output as _sfdb_v1_GetStaticObjectResponse__Output } from './sfdb/v1/GetStaticObjectResponse.js';
import type { GetWorkItemRequest as _sfdb_v1_GetWorkItemRequest, GetWorkItemRequest__Output as _sfdb_v1_GetWorkItemRequest__Output } from './sfdb/v1/GetWorkItemRequest.js';
import type { GetWorkItemResponse as _sfdb_v1_GetWorkItemResponse, GetWorkItemResponse__Output as _sfdb_v1_GetWorkItemResponse__Output } from './sfdb/v1/GetWorkItemResponse.js';
import type { Interest as _sfdb_v1_Interest, Interest__Output as _sfdb_v1_Interest__Output } from './sfdb/v1/Interest.js';
import type { Lease as _sfdb_v1_Lease, Lease__Output as _sfdb_v1_Lease__Output } from './sfdb/v1/Lease.js';
import type { LeaseFence as _sfdb_v1_LeaseFence, LeaseFence__Output as _sfdb_v1_LeaseFence__Output } from './sfdb/v1/LeaseFence.js';
import type { ListLeasesRequest as _sfdb_v1_ListLeasesRequest, ListLeasesRequest__Output as _sfdb_v1_ListLeasesRequest__Output } from './sfdb/v1/ListLeasesRequest.js';
import type { ListLeasesResponse as _sfdb_v1_ListLeasesResponse, ListLeasesResponse__Output as _sfdb_v1_ListLeasesResponse__Output } from './sfdb/v1/ListLeasesResponse.js';
import type { ListNodeDaemonStatesRequest as _sfdb_v1_ListNodeDaemonStatesRequest, ListNodeDaemonStatesRequest__Output as _sfdb_v1_ListNodeDaemonStatesRequest__Output } from './sfdb/v1/ListNodeDaemonStatesRequest.js';
import type { ListNodeDaemonStatesResponse as _sfdb_v1_ListNodeDaemonStatesResponse, ListNodeDaemonStatesResponse__Output as _sfdb_v1_ListNodeDaemonStatesResponse__Output } from './sfdb/v1/ListNodeDaemonStatesResponse.js';
import type { ListNodesRequest as _sfdb_v1_ListNodesRequest, ListNodesRequest__Output as _sfdb_v1_ListNodesRequest__Output } from './sfdb/v1/ListNodesRequest.js';
import type { ListNodesResponse as _sfdb_v1_ListNodesResponse, ListNodesResponse__Output as _sfdb_v1_ListNodesResponse__Output } from './sfdb/v1/ListNodesResponse.js';
import type { ListObjectEventsRequest as _sfdb_v1_ListObjectEventsRequest, ListObjectEventsRequest__Output as _sfdb_v1_ListObjectEventsRequest__Output } from './sfdb/v1/ListObjectEventsRequest.js';
import type { ListObjectEventsResponse as _sfdb_v1_ListObjectEventsResponse, ListObjectEventsResponse__Output as _sfdb_v1_ListObjectEventsResponse__Output } from './sfdb/v1/ListObjectEventsResponse.js';
import type { ListObjectsByStateRequest as _sfdb_v1_ListObjectsByStateRequest, ListObjectsByStateRequest__Output as _sfdb_v1_ListObjectsByStateRequest__Output } from './sfdb/v1/ListObjectsByStateRequest.js';
import type { ListObjectsByStateResponse as _sfdb_v1_ListObjectsByStateResponse, ListObjectsByStateResponse__Output as _sfdb_v1_ListObjectsByStateResponse__Output } from './sfdb/v1/ListObjectsByStateResponse.js';
import type { ListReservationsRequest as _sfdb_v1_ListReservationsRequest, ListReservationsRequest__Output as _sfdb_v1_ListReservationsRequest__Output } from './sfdb/v1/ListReservationsRequest.js';
import type { ListReservationsResponse as _sfdb_v1_ListReservationsResponse, ListReservationsResponse__Output as _sfdb_v1_ListReservationsResponse__Output } from './sfdb/v1/ListReservationsResponse.js';
import type { ListStaticObjectsRequest as _sfdb_v1_ListStaticObjectsRequest, ListStaticObjectsRequest__Output as _sfdb_v1_ListStaticObjectsRequest__Output } from './sfdb/v1/ListStaticObjectsRequest.js';
import type { ListStaticObjectsResponse as _sfdb_v1_ListStaticObjectsResponse, ListStaticObjectsResponse__Output as _sfdb_v1_ListStaticObjectsResponse__Output } from './sfdb/v1/ListStaticObjectsResponse.js';
import type { ListStuckClaimsRequest as _sfdb_v1_ListStuckClaimsRequest, ListStuckClaimsRequest__Output as _sfdb_v1_ListStuckClaimsRequest__Output } from './sfdb/v1/ListStuckClaimsRequest.js';
import type { ListStuckClaimsResponse as _sfdb_v1_ListStuckClaimsResponse, ListStuckClaimsResponse__Output as _sfdb_v1_ListStuckClaimsResponse__Output } from './sfdb/v1/ListStuckClaimsResponse.js';
import type { ListWorkItemsRequest as _sfdb_v1_ListWorkItemsRequest, ListWorkItemsRequest__Output as _sfdb_v1_ListWorkItemsRequest__Output } from './sfdb/v1/ListWorkItemsRequest.js';
import type { ListWorkItemsResponse as _sfdb_v1_ListWorkItemsResponse, ListWorkItemsResponse__Output as _sfdb_v1_ListWorkItemsResponse__Output } from './sfdb/v1/ListWorkItemsResponse.js';
import type { Node as _sfdb_v1_Node, Node__Output as _sfdb_v1_Node__Output } from './sfdb/v1/Node.js';
import type { NodeDaemonState as _sfdb_v1_NodeDaemonState, NodeDaemonState__Output as _sfdb_v1_NodeDaemonState__Output } from './sfdb/v1/NodeDaemonState.js';
import type { NodeHeartbeatRequest as _sfdb_v1_NodeHeartbeatRequest, NodeHeartbeatRequest__Output as _sfdb_v1_NodeHeartbeatRequest__Output } from './sfdb/v1/NodeHeartbeatRequest.js';
import type { NodeHeartbeatResponse as _sfdb_v1_NodeHeartbeatResponse, NodeHeartbeatResponse__Output as _sfdb_v1_NodeHeartbeatResponse__Output } from './sfdb/v1/NodeHeartbeatResponse.js';
import type { NodeStatus as _sfdb_v1_NodeStatus, NodeStatus__Output as _sfdb_v1_NodeStatus__Output } from './sfdb/v1/NodeStatus.js';
import type { ObjectStateRecord as _sfdb_v1_ObjectStateRecord, ObjectStateRecord__Output as _sfdb_v1_ObjectStateRecord__Output } from './sfdb/v1/ObjectStateRecord.js';
import type { PokeChangesRequest as _sfdb_v1_PokeChangesRequest, PokeChangesRequest__Output as _sfdb_v1_PokeChangesRequest__Output } from './sfdb/v1/PokeChangesRequest.js';
import type { PokeChangesResponse as _sfdb_v1_PokeChangesResponse, PokeChangesResponse__Output as _sfdb_v1_PokeChangesResponse__Output } from './sfdb/v1/PokeChangesResponse.js';
import type { PruneChangesRequest as _sfdb_v1_PruneChangesRequest, PruneChangesRequest__Output as _sfdb_v1_PruneChangesRequest__Output } from './sfdb/v1/PruneChangesRequest.js';
import type { PruneChangesResponse as _sfdb_v1_PruneChangesResponse, PruneChangesResponse__Output as _sfdb_v1_PruneChangesResponse__Output } from './sfdb/v1/PruneChangesResponse.js';
import type { PruneEventsRequest as _sfdb_v1_PruneEventsRequest, PruneEventsRequest__Output as _sfdb_v1_PruneEventsRequest__Output } from './sfdb/v1/PruneEventsRequest.js';
import type { PruneEventsResponse as _sfdb_v1_PruneEventsResponse, PruneEventsResponse__Output as _sfdb_v1_PruneEventsResponse__Output } from './sfdb/v1/PruneEventsResponse.js';
import type { RecordEventsRequest as _sfdb_v1_RecordEventsRequest, RecordEventsRequest__Output as _sfdb_v1_RecordEventsRequest__Output } from './sfdb/v1/RecordEventsRequest.js';
import type { RecordEventsResponse as _sfdb_v1_RecordEventsResponse, RecordEventsResponse__Output as _sfdb_v1_RecordEventsResponse__Output } from './sfdb/v1/RecordEventsResponse.js';
import type { RecordReferenceRequest as _sfdb_v1_RecordReferenceRequest, RecordReferenceRequest__Output as _sfdb_v1_RecordReferenceRequest__Output } from './sfdb/v1/RecordReferenceRequest.js';
import type { RecordReferenceResponse as _sfdb_v1_RecordReferenceResponse, RecordReferenceResponse__Output as _sfdb_v1_RecordReferenceResponse__Output } from './sfdb/v1/RecordReferenceResponse.js';
import type { Reference as _sfdb_v1_Reference, Reference__Output as _sfdb_v1_Reference__Output } from './sfdb/v1/Reference.js';
import type { ReleaseAddressRequest as _sfdb_v1_ReleaseAddressRequest, ReleaseAddressRequest__Output as _sfdb_v1_ReleaseAddressRequest__Output } from './sfdb/v1/ReleaseAddressRequest.js';
import type { ReleaseAddressResponse as _sfdb_v1_ReleaseAddressResponse, ReleaseAddressResponse__Output as _sfdb_v1_ReleaseAddressResponse__Output } from './sfdb/v1/ReleaseAddressResponse.js';
import type { ReleaseLeaseRequest as _sfdb_v1_ReleaseLeaseRequest, ReleaseLeaseRequest__Output as _sfdb_v1_ReleaseLeaseRequest__Output } from './sfdb/v1/ReleaseLeaseRequest.js';
import type { ReleaseLeaseResponse as _sfdb_v1_ReleaseLeaseResponse, ReleaseLeaseResponse__Output as _sfdb_v1_ReleaseLeaseResponse__Output } from './sfdb/v1/ReleaseLeaseResponse.js';
import type { ReleaseRequest as _sfdb_v1_ReleaseRequest, ReleaseRequest__Output as _sfdb_v1_ReleaseRequest__Output } from './sfdb/v1/ReleaseRequest.js';
import type { ReleaseResponse as _sfdb_v1_ReleaseResponse, ReleaseResponse__Output as _sfdb_v1_ReleaseResponse__Output } from './sfdb/v1/ReleaseResponse.js';
import type { RemoveReferenceRequest as _sfdb_v1_RemoveReferenceRequest, RemoveReferenceRequest__Output as _sfdb_v1_RemoveReferenceRequest__Output } from './sfdb/v1/RemoveReferenceRequest.js';
import type { RemoveReferenceResponse as _sfdb_v1_RemoveReferenceResponse, RemoveReferenceResponse__Output as _sfdb_v1_RemoveReferenceResponse__Output } from './sfdb/v1/RemoveReferenceResponse.js';
import type { RenewClaimRequest as _sfdb_v1_RenewClaimRequest, RenewClaimRequest__Output as _sfdb_v1_RenewClaimRequest__Output } from './sfdb/v1/RenewClaimRequest.js';
import type { RenewClaimResponse as _sfdb_v1_RenewClaimResponse, RenewClaimResponse__Output as _sfdb_v1_RenewClaimResponse__Output } from './sfdb/v1/RenewClaimResponse.js';
import type { RenewLeaseRequest as _sfdb_v1_RenewLeaseRequest, RenewLeaseRequest__Output as _sfdb_v1_RenewLeaseRequest__Output } from './sfdb/v1/RenewLeaseRequest.js';
import type { RenewLeaseResponse as _sfdb_v1_RenewLeaseResponse, RenewLeaseResponse__Output as _sfdb_v1_RenewLeaseResponse__Output } from './sfdb/v1/RenewLeaseResponse.js';
import type { ReplicaStatus as _sfdb_v1_ReplicaStatus, ReplicaStatus__Output as _sfdb_v1_ReplicaStatus__Output } from './sfdb/v1/ReplicaStatus.js';
import type { RequeueExpiredClaimsRequest as _sfdb_v1_RequeueExpiredClaimsRequest, RequeueExpiredClaimsRequest__Output as _sfdb_v1_RequeueExpiredClaimsRequest__Output } from './sfdb/v1/RequeueExpiredClaimsRequest.js';
import type { RequeueExpiredClaimsResponse as _sfdb_v1_RequeueExpiredClaimsResponse, RequeueExpiredClaimsResponse__Output as _sfdb_v1_RequeueExpiredClaimsResponse__Output } from './sfdb/v1/RequeueExpiredClaimsResponse.js';
import type { Reservation as _sfdb_v1_Reservation, Reservation__Output as _sfdb_v1_Reservation__Output } from './sfdb/v1/Reservation.js';
import type { ReserveAddressRequest as _sfdb_v1_ReserveAddressRequest, ReserveAddressRequest__Output as _sfdb_v1_ReserveAddressRequest__Output } from './sfdb/v1/ReserveAddressRequest.js';
import type { ReserveAddressResponse as _sfdb_v1_ReserveAddressResponse, ReserveAddressResponse__Output as _sfdb_v1_ReserveAddressResponse__Output } from './sfdb/v1/ReserveAddressResponse.js';
import type { ResolveRequest as _sfdb_v1_ResolveRequest, ResolveRequest__Output as _sfdb_v1_ResolveRequest__Output } from './sfdb/v1/ResolveRequest.js';
import type { ResolveResponse as _sfdb_v1_ResolveResponse, ResolveResponse__Output as _sfdb_v1_ResolveResponse__Output } from './sfdb/v1/ResolveResponse.js';
import type { SetClusterConfigRequest as _sfdb_v1_SetClusterConfigRequest, SetClusterConfigRequest__Output as _sfdb_v1_SetClusterConfigRequest__Output } from './sfdb/v1/SetClusterConfigRequest.js';
import type { SetClusterConfigResponse as _sfdb_v1_SetClusterConfigResponse, SetClusterConfigResponse__Output as _sfdb_v1_SetClusterConfigResponse__Output } from './sfdb/v1/SetClusterConfigResponse.js';
import type { SetNodeDaemonStateRequest as _sfdb_v1_SetNodeDaemonStateRequest, SetNodeDaemonStateRequest__Output as _sfdb_v1_SetNodeDaemonStateRequest__Output } from './sfdb/v1/SetNodeDaemonStateRequest.js';
import type { SetNodeDaemonStateResponse as _sfdb_v1_SetNodeDaemonStateResponse, SetNodeDaemonStateResponse__Output as _sfdb_v1_SetNodeDaemonStateResponse__Output } from './sfdb/v1/SetNodeDaemonStateResponse.js';
import type { SetObjectAttributesRequest as _sfdb_v1_SetObjectAttributesRequest, SetObjectAttributesRequest__Output as _sfdb_v1_SetObjectAttributesRequest__Output } from './sfdb/v1/SetObjectAttributesRequest.js';
import type { SetObjectAttributesResponse as _sfdb_v1_SetObjectAttributesResponse, SetObjectAttributesResponse__Output as _sfdb_v1_SetObjectAttributesResponse__Output } from './sfdb/v1/SetObjectAttributesResponse.js';
import type { SetObjectStateRequest as _sfdb_v1_SetObjectStateRequest, SetObjectStateRequest__Output as _sfdb_v1_SetObjectStateRequest__Output } from './sfdb/v1/SetObjectStateRequest.js';
import type { SetObjectStateResponse as _sfdb_v1_SetObjectStateResponse, SetObjectStateResponse__Output as _sfdb_v1_SetObjectStateResponse__Output } from './sfdb/v1/SetObjectStateResponse.js';
import type { StaticObject as _sfdb_v1_StaticObject, StaticObject__Output as _sfdb_v1_StaticObject__Output } from './sfdb/v1/StaticObject.js';
import type { SweepReplicaRegistryRequest as _sfdb_v1_SweepReplicaRegistryRequest, SweepReplicaRegistryRequest__Output as _sfdb_v1_SweepReplicaRegistryRequest__Output } from './sfdb/v1/SweepReplicaRegistryRequest.js';
import type { SweepReplicaRegistryResponse as _sfdb_v1_SweepReplicaRegistryResponse, SweepReplicaRegistryResponse__Output as _sfdb_v1_SweepReplicaRegistryResponse__Output } from './sfdb/v1/SweepReplicaRegistryResponse.js';
import type { UpdateBlobTransferRequest as _sfdb_v1_UpdateBlobTransferRequest, UpdateBlobTransferRequest__Output as _sfdb_v1_UpdateBlobTransferRequest__Output } from './sfdb/v1/UpdateBlobTransferRequest.js';
import type { UpdateBlobTransferResponse as _sfdb_v1_UpdateBlobTransferResponse, UpdateBlobTransferResponse__Output as _sfdb_v1_UpdateBlobTransferResponse__Output } from './sfdb/v1/UpdateBlobTransferResponse.js';
import type { UpdateNodeRequest as _sfdb_v1_UpdateNodeRequest, UpdateNodeRequest__Output as _sfdb_v1_UpdateNodeRequest__Output } from './sfdb/v1/UpdateNodeRequest.js';
import type { UpdateNodeResponse as _sfdb_v1_UpdateNodeResponse, UpdateNodeResponse__Output as _sfdb_v1_UpdateNodeResponse__Output } from './sfdb/v1/UpdateNodeResponse.js';
import type { UpdateStaticObjectRequest as _sfdb_v1_UpdateStaticObjectRequest, UpdateStaticObjectRequest__Output as _sfdb_v1_UpdateStaticObjectRequest__Output } from './sfdb/v1/UpdateStaticObjectRequest.js';
import type { UpdateStaticObjectResponse as _sfdb_v1_UpdateStaticObjectResponse, UpdateStaticObjectResponse__Output as _sfdb_v1_UpdateStaticObjectResponse__Output } from './sfdb/v1/UpdateStaticObjectResponse.js';
import type { WaitForChangesRequest as _sfdb_v1_WaitForChangesRequest, WaitForChangesRequest__Output as _sfdb_v1_WaitForChangesRequest__Output } from './sfdb/v1/WaitForChangesRequest.js';
import type { WaitForChangesResponse as _sfdb_v1_WaitForChangesResponse, WaitForChangesResponse__Output as _sfdb_v1_WaitForChangesResponse__Output } from './sfdb/v1/WaitForChangesResponse.js';
import type { WatchReplicasRequest as _sfdb_v1_WatchReplicasRequest, WatchReplicasRequest__Output as _sfdb_v1_WatchReplicasRequest__Output } from './sfdb/v1/WatchReplicasRequest.js';
import type { WatchReplicasResponse as _sfdb_v1_WatchReplicasResponse, WatchReplicasResponse__Output as _sfdb_v1_WatchReplicasResponse__Output } from './sfdb/v1/WatchReplicasResponse.js';
import type { WorkItem as _sfdb_v1_WorkItem, WorkItem__Output as _sfdb_v1_WorkItem__Output } from './sfdb/v1/WorkItem.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  sfdb: {
    v1: {
      AcquireLeaseRequest: MessageTypeDefinition<_sfdb_v1_AcquireLeaseRequest, _sfdb_v1_AcquireLeaseRequest__Output>
      AcquireLeaseResponse: MessageTypeDefinition<_sfdb_v1_AcquireLeaseResponse, _sfdb_v1_AcquireLeaseResponse__Output>
      BlobTransfer: MessageTypeDefinition<_sfdb_v1_BlobTransfer, _sfdb_v1_BlobTransfer__Output>
      Change: MessageTypeDefinition<_sfdb_v1_Change, _sfdb_v1_Change__Output>
      ChangeKind: EnumTypeDefinition
      Claim: MessageTypeDefinition<_sfdb_v1_Claim, _sfdb_v1_Claim__Output>
      CreateBlobTransferRequest: MessageTypeDefinition<_sfdb_v1_CreateBlobTransferRequest, _sfdb_v1_CreateBlobTransferRequest__Output>
      CreateBlobTransferResponse: MessageTypeDefinition<_sfdb_v1_CreateBlobTransferResponse, _sfdb_v1_CreateBlobTransferResponse__Output>
      CreateNodeRequest: MessageTypeDefinition<_sfdb_v1_CreateNodeRequest, _sfdb_v1_CreateNodeRequest__Output>
      CreateNodeResponse: MessageTypeDefinition<_sfdb_v1_CreateNodeResponse, _sfdb_v1_CreateNodeResponse__Output>
      CreateStaticObjectRequest: MessageTypeDefinition<_sfdb_v1_CreateStaticObjectRequest, _sfdb_v1_CreateStaticObjectRequest__Output>
      CreateStaticObjectResponse: MessageTypeDefinition<_sfdb_v1_CreateStaticObjectResponse, _sfdb_v1_CreateStaticObjectResponse__Output>
      DaemonState: EnumTypeDefinition
      Database: SubtypeConstructor<typeof grpc.Client, _sfdb_v1_DatabaseClient> & { service: _sfdb_v1_DatabaseDefinition }
      DeleteNodeRequest: MessageTypeDefinition<_sfdb_v1_DeleteNodeRequest, _sfdb_v1_DeleteNodeRequest__Output>
      DeleteObjectAttributesRequest: MessageTypeDefinition<_sfdb_v1_DeleteObjectAttributesRequest, _sfdb_v1_DeleteObjectAttributesRequest__Output>
      DeleteObjectStateRequest: MessageTypeDefinition<_sfdb_v1_DeleteObjectStateRequest, _sfdb_v1_DeleteObjectStateRequest__Output>
      DeleteResponse: MessageTypeDefinition<_sfdb_v1_DeleteResponse, _sfdb_v1_DeleteResponse__Output>
      DeleteStaticObjectRequest: MessageTypeDefinition<_sfdb_v1_DeleteStaticObjectRequest, _sfdb_v1_DeleteStaticObjectRequest__Output>
      DequeueRequest: MessageTypeDefinition<_sfdb_v1_DequeueRequest, _sfdb_v1_DequeueRequest__Output>
      DequeueResponse: MessageTypeDefinition<_sfdb_v1_DequeueResponse, _sfdb_v1_DequeueResponse__Output>
      EnqueueRequest: MessageTypeDefinition<_sfdb_v1_EnqueueRequest, _sfdb_v1_EnqueueRequest__Output>
      EnqueueResponse: MessageTypeDefinition<_sfdb_v1_EnqueueResponse, _sfdb_v1_EnqueueResponse__Output>
      Event: MessageTypeDefinition<_sfdb_v1_Event, _sfdb_v1_Event__Output>
      EventInput: MessageTypeDefinition<_sfdb_v1_EventInput, _sfdb_v1_EventInput__Output>
      GetAddressesInUseRequest: MessageTypeDefinition<_sfdb_v1_GetAddressesInUseRequest, _sfdb_v1_GetAddressesInUseRequest__Output>
      GetAddressesInUseResponse: MessageTypeDefinition<_sfdb_v1_GetAddressesInUseResponse, _sfdb_v1_GetAddressesInUseResponse__Output>
      GetBlobTransfersForNodeRequest: MessageTypeDefinition<_sfdb_v1_GetBlobTransfersForNodeRequest, _sfdb_v1_GetBlobTransfersForNodeRequest__Output>
      GetBlobTransfersForNodeResponse: MessageTypeDefinition<_sfdb_v1_GetBlobTransfersForNodeResponse, _sfdb_v1_GetBlobTransfersForNodeResponse__Output>
      GetChangesSinceRequest: MessageTypeDefinition<_sfdb_v1_GetChangesSinceRequest, _sfdb_v1_GetChangesSinceRequest__Output>
      GetChangesSinceResponse: MessageTypeDefinition<_sfdb_v1_GetChangesSinceResponse, _sfdb_v1_GetChangesSinceResponse__Output>
      GetClusterConfigRequest: MessageTypeDefinition<_sfdb_v1_GetClusterConfigRequest, _sfdb_v1_GetClusterConfigRequest__Output>
      GetClusterConfigResponse: MessageTypeDefinition<_sfdb_v1_GetClusterConfigResponse, _sfdb_v1_GetClusterConfigResponse__Output>
      GetClusterStatusRequest: MessageTypeDefinition<_sfdb_v1_GetClusterStatusRequest, _sfdb_v1_GetClusterStatusRequest__Output>
      GetClusterStatusResponse: MessageTypeDefinition<_sfdb_v1_GetClusterStatusResponse, _sfdb_v1_GetClusterStatusResponse__Output>
      GetLeaseRequest: MessageTypeDefinition<_sfdb_v1_GetLeaseRequest, _sfdb_v1_GetLeaseRequest__Output>
      GetLeaseResponse: MessageTypeDefinition<_sfdb_v1_GetLeaseResponse, _sfdb_v1_GetLeaseResponse__Output>
      GetNodeByFqdnRequest: MessageTypeDefinition<_sfdb_v1_GetNodeByFqdnRequest, _sfdb_v1_GetNodeByFqdnRequest__Output>
      GetNodeDaemonStateRequest: MessageTypeDefinition<_sfdb_v1_GetNodeDaemonStateRequest, _sfdb_v1_GetNodeDaemonStateRequest__Output>
      GetNodeDaemonStateResponse: MessageTypeDefinition<_sfdb_v1_GetNodeDaemonStateResponse, _sfdb_v1_GetNodeDaemonStateResponse__Output>
      GetNodeRequest: MessageTypeDefinition<_sfdb_v1_GetNodeRequest, _sfdb_v1_GetNodeRequest__Output>
      GetNodeResponse: MessageTypeDefinition<_sfdb_v1_GetNodeResponse, _sfdb_v1_GetNodeResponse__Output>
      GetObjectAttributesRequest: MessageTypeDefinition<_sfdb_v1_GetObjectAttributesRequest, _sfdb_v1_GetObjectAttributesRequest__Output>
      GetObjectAttributesResponse: MessageTypeDefinition<_sfdb_v1_GetObjectAttributesResponse, _sfdb_v1_GetObjectAttributesResponse__Output>
      GetObjectStateRequest: MessageTypeDefinition<_sfdb_v1_GetObjectStateRequest, _sfdb_v1_GetObjectStateRequest__Output>
      GetObjectStateResponse: MessageTypeDefinition<_sfdb_v1_GetObjectStateResponse, _sfdb_v1_GetObjectStateResponse__Output>
      GetQueueLengthRequest: MessageTypeDefinition<_sfdb_v1_GetQueueLengthRequest, _sfdb_v1_GetQueueLengthRequest__Output>
      GetQueueLengthResponse: MessageTypeDefinition<_sfdb_v1_GetQueueLengthResponse, _sfdb_v1_GetQueueLengthResponse__Output>
      GetReferencesFromRequest: MessageTypeDefinition<_sfdb_v1_GetReferencesFromRequest, _sfdb_v1_GetReferencesFromRequest__Output>
      GetReferencesResponse: MessageTypeDefinition<_sfdb_v1_GetReferencesResponse, _sfdb_v1_GetReferencesResponse__Output>
      GetReferencesToRequest: MessageTypeDefinition<_sfdb_v1_GetReferencesToRequest, _sfdb_v1_GetReferencesToRequest__Output>
      GetStaticObjectRequest: MessageTypeDefinition<_sfdb_v1_GetStaticObjectRequest, _sfdb_v1_GetStaticObjectRequest__Output>
      GetStaticObjectResponse: MessageTypeDefinition<_sfdb_v1_GetStaticObjectResponse, _sfdb_v1_GetStaticObjectResponse__Output>
      GetWorkItemRequest: MessageTypeDefinition<_sfdb_v1_GetWorkItemRequest, _sfdb_v1_GetWorkItemRequest__Output>
      GetWorkItemResponse: MessageTypeDefinition<_sfdb_v1_GetWorkItemResponse, _sfdb_v1_GetWorkItemResponse__Output>
      Interest: MessageTypeDefinition<_sfdb_v1_Interest, _sfdb_v1_Interest__Output>
      Lease: MessageTypeDefinition<_sfdb_v1_Lease, _sfdb_v1_Lease__Output>
      LeaseFence: MessageTypeDefinition<_sfdb_v1_LeaseFence, _sfdb_v1_LeaseFence__Output>
      ListLeasesRequest: MessageTypeDefinition<_sfdb_v1_ListLeasesRequest, _sfdb_v1_ListLeasesRequest__Output>
      ListLeasesResponse: MessageTypeDefinition<_sfdb_v1_ListLeasesResponse, _sfdb_v1_ListLeasesResponse__Output>
      ListNodeDaemonStatesRequest: MessageTypeDefinition<_sfdb_v1_ListNodeDaemonStatesRequest, _sfdb_v1_ListNodeDaemonStatesRequest__Output>
      ListNodeDaemonStatesResponse: MessageTypeDefinition<_sfdb_v1_ListNodeDaemonStatesResponse, _sfdb_v1_ListNodeDaemonStatesResponse__Output>
      ListNodesRequest: MessageTypeDefinition<_sfdb_v1_ListNodesRequest, _sfdb_v1_ListNodesRequest__Output>
      ListNodesResponse: MessageTypeDefinition<_sfdb_v1_ListNodesResponse, _sfdb_v1_ListNodesResponse__Output>
      ListObjectEventsRequest: MessageTypeDefinition<_sfdb_v1_ListObjectEventsRequest, _sfdb_v1_ListObjectEventsRequest__Output>
      ListObjectEventsResponse: MessageTypeDefinition<_sfdb_v1_ListObjectEventsResponse, _sfdb_v1_ListObjectEventsResponse__Output>
      ListObjectsByStateRequest: MessageTypeDefinition<_sfdb_v1_ListObjectsByStateRequest, _sfdb_v1_ListObjectsByStateRequest__Output>
      ListObjectsByStateResponse: MessageTypeDefinition<_sfdb_v1_ListObjectsByStateResponse, _sfdb_v1_ListObjectsByStateResponse__Output>
      ListReservationsRequest: MessageTypeDefinition<_sfdb_v1_ListReservationsRequest, _sfdb_v1_ListReservationsRequest__Output>
      ListReservationsResponse: MessageTypeDefinition<_sfdb_v1_ListReservationsResponse, _sfdb_v1_ListReservationsResponse__Output>
      ListStaticObjectsRequest: MessageTypeDefinition<_sfdb_v1_ListStaticObjectsRequest, _sfdb_v1_ListStaticObjectsRequest__Output>
      ListStaticObjectsResponse: MessageTypeDefinition<_sfdb_v1_ListStaticObjectsResponse, _sfdb_v1_ListStaticObjectsResponse__Output>
      ListStuckClaimsRequest: MessageTypeDefinition<_sfdb_v1_ListStuckClaimsRequest, _sfdb_v1_ListStuckClaimsRequest__Output>
      ListStuckClaimsResponse: MessageTypeDefinition<_sfdb_v1_ListStuckClaimsResponse, _sfdb_v1_ListStuckClaimsResponse__Output>
      ListWorkItemsRequest: MessageTypeDefinition<_sfdb_v1_ListWorkItemsRequest, _sfdb_v1_ListWorkItemsRequest__Output>
      ListWorkItemsResponse: MessageTypeDefinition<_sfdb_v1_ListWorkItemsResponse, _sfdb_v1_ListWorkItemsResponse__Output>
      Node: MessageTypeDefinition<_sfdb_v1_Node, _sfdb_v1_Node__Output>
      NodeDaemonState: MessageTypeDefinition<_sfdb_v1_NodeDaemonState, _sfdb_v1_NodeDaemonState__Output>
      NodeHeartbeatRequest: MessageTypeDefinition<_sfdb_v1_NodeHeartbeatRequest, _sfdb_v1_NodeHeartbeatRequest__Output>
      NodeHeartbeatResponse: MessageTypeDefinition<_sfdb_v1_NodeHeartbeatResponse, _sfdb_v1_NodeHeartbeatResponse__Output>
      NodeStatus: MessageTypeDefinition<_sfdb_v1_NodeStatus, _sfdb_v1_NodeStatus__Output>
      ObjectState: EnumTypeDefinition
      ObjectStateRecord: MessageTypeDefinition<_sfdb_v1_ObjectStateRecord, _sfdb_v1_ObjectStateRecord__Output>
      ObjectType: EnumTypeDefinition
      OperatorHold: EnumTypeDefinition
      PokeChangesRequest: MessageTypeDefinition<_sfdb_v1_PokeChangesRequest, _sfdb_v1_PokeChangesRequest__Output>
      PokeChangesResponse: MessageTypeDefinition<_sfdb_v1_PokeChangesResponse, _sfdb_v1_PokeChangesResponse__Output>
      PruneChangesRequest: MessageTypeDefinition<_sfdb_v1_PruneChangesRequest, _sfdb_v1_PruneChangesRequest__Output>
      PruneChangesResponse: MessageTypeDefinition<_sfdb_v1_PruneChangesResponse, _sfdb_v1_PruneChangesResponse__Output>
      PruneEventsRequest: MessageTypeDefinition<_sfdb_v1_PruneEventsRequest, _sfdb_v1_PruneEventsRequest__Output>
      PruneEventsResponse: MessageTypeDefinition<_sfdb_v1_PruneEventsResponse, _sfdb_v1_PruneEventsResponse__Output>
      RecordEventsRequest: MessageTypeDefinition<_sfdb_v1_RecordEventsRequest, _sfdb_v1_RecordEventsRequest__Output>
      RecordEventsResponse: MessageTypeDefinition<_sfdb_v1_RecordEventsResponse, _sfdb_v1_RecordEventsResponse__Output>
      RecordReferenceRequest: MessageTypeDefinition<_sfdb_v1_RecordReferenceRequest, _sfdb_v1_RecordReferenceRequest__Output>
      RecordReferenceResponse: MessageTypeDefinition<_sfdb_v1_RecordReferenceResponse, _sfdb_v1_RecordReferenceResponse__Output>
      Reference: MessageTypeDefinition<_sfdb_v1_Reference, _sfdb_v1_Reference__Output>
      ReleaseAddressRequest: MessageTypeDefinition<_sfdb_v1_ReleaseAddressRequest, _sfdb_v1_ReleaseAddressRequest__Output>
      ReleaseAddressResponse: MessageTypeDefinition<_sfdb_v1_ReleaseAddressResponse, _sfdb_v1_ReleaseAddressResponse__Output>
      ReleaseLeaseRequest: MessageTypeDefinition<_sfdb_v1_ReleaseLeaseRequest, _sfdb_v1_ReleaseLeaseRequest__Output>
      ReleaseLeaseResponse: MessageTypeDefinition<_sfdb_v1_ReleaseLeaseResponse, _sfdb_v1_ReleaseLeaseResponse__Output>
      ReleaseRequest: MessageTypeDefinition<_sfdb_v1_ReleaseRequest, _sfdb_v1_ReleaseRequest__Output>
      ReleaseResponse: MessageTypeDefinition<_sfdb_v1_ReleaseResponse, _sfdb_v1_ReleaseResponse__Output>
      RemoveReferenceRequest: MessageTypeDefinition<_sfdb_v1_RemoveReferenceRequest, _sfdb_v1_RemoveReferenceRequest__Output>
      RemoveReferenceResponse: MessageTypeDefinition<_sfdb_v1_RemoveReferenceResponse, _sfdb_v1_RemoveReferenceResponse__Output>
      RenewClaimRequest: MessageTypeDefinition<_sfdb_v1_RenewClaimRequest, _sfdb_v1_RenewClaimRequest__Output>
      RenewClaimResponse: MessageTypeDefinition<_sfdb_v1_RenewClaimResponse, _sfdb_v1_RenewClaimResponse__Output>
      RenewLeaseRequest: MessageTypeDefinition<_sfdb_v1_RenewLeaseRequest, _sfdb_v1_RenewLeaseRequest__Output>
      RenewLeaseResponse: MessageTypeDefinition<_sfdb_v1_RenewLeaseResponse, _sfdb_v1_RenewLeaseResponse__Output>
      ReplicaStatus: MessageTypeDefinition<_sfdb_v1_ReplicaStatus, _sfdb_v1_ReplicaStatus__Output>
      RequeueExpiredClaimsRequest: MessageTypeDefinition<_sfdb_v1_RequeueExpiredClaimsRequest, _sfdb_v1_RequeueExpiredClaimsRequest__Output>
      RequeueExpiredClaimsResponse: MessageTypeDefinition<_sfdb_v1_RequeueExpiredClaimsResponse, _sfdb_v1_RequeueExpiredClaimsResponse__Output>
      Reservation: MessageTypeDefinition<_sfdb_v1_Reservation, _sfdb_v1_Reservation__Output>
      ReserveAddressRequest: MessageTypeDefinition<_sfdb_v1_ReserveAddressRequest, _sfdb_v1_ReserveAddressRequest__Output>
      ReserveAddressResponse: MessageTypeDefinition<_sfdb_v1_ReserveAddressResponse, _sfdb_v1_ReserveAddressResponse__Output>
      ResolveRequest: MessageTypeDefinition<_sfdb_v1_ResolveRequest, _sfdb_v1_ResolveRequest__Output>
      ResolveResponse: MessageTypeDefinition<_sfdb_v1_ResolveResponse, _sfdb_v1_ResolveResponse__Output>
      SetClusterConfigRequest: MessageTypeDefinition<_sfdb_v1_SetClusterConfigRequest, _sfdb_v1_SetClusterConfigRequest__Output>
      SetClusterConfigResponse: MessageTypeDefinition<_sfdb_v1_SetClusterConfigResponse, _sfdb_v1_SetClusterConfigResponse__Output>
      SetNodeDaemonStateRequest: MessageTypeDefinition<_sfdb_v1_SetNodeDaemonStateRequest, _sfdb_v1_SetNodeDaemonStateRequest__Output>
      SetNodeDaemonStateResponse: MessageTypeDefinition<_sfdb_v1_SetNodeDaemonStateResponse, _sfdb_v1_SetNodeDaemonStateResponse__Output>
      SetObjectAttributesRequest: MessageTypeDefinition<_sfdb_v1_SetObjectAttributesRequest, _sfdb_v1_SetObjectAttributesRequest__Output>
      SetObjectAttributesResponse: MessageTypeDefinition<_sfdb_v1_SetObjectAttributesResponse, _sfdb_v1_SetObjectAttributesResponse__Output>
      SetObjectStateRequest: MessageTypeDefinition<_sfdb_v1_SetObjectStateRequest, _sfdb_v1_SetObjectStateRequest__Output>
      SetObjectStateResponse: MessageTypeDefinition<_sfdb_v1_SetObjectStateResponse, _sfdb_v1_SetObjectStateResponse__Output>
      StaticObject: MessageTypeDefinition<_sfdb_v1_StaticObject, _sfdb_v1_StaticObject__Output>
      SweepReplicaRegistryRequest: MessageTypeDefinition<_sfdb_v1_SweepReplicaRegistryRequest, _sfdb_v1_SweepReplicaRegistryRequest__Output>
      SweepReplicaRegistryResponse: MessageTypeDefinition<_sfdb_v1_SweepReplicaRegistryResponse, _sfdb_v1_SweepReplicaRegistryResponse__Output>
      TransferState: EnumTypeDefinition
      UpdateBlobTransferRequest: MessageTypeDefinition<_sfdb_v1_UpdateBlobTransferRequest, _sfdb_v1_UpdateBlobTransferRequest__Output>
      UpdateBlobTransferResponse: MessageTypeDefinition<_sfdb_v1_UpdateBlobTransferResponse, _sfdb_v1_UpdateBlobTransferResponse__Output>
      UpdateNodeRequest: MessageTypeDefinition<_sfdb_v1_UpdateNodeRequest, _sfdb_v1_UpdateNodeRequest__Output>
      UpdateNodeResponse: MessageTypeDefinition<_sfdb_v1_UpdateNodeResponse, _sfdb_v1_UpdateNodeResponse__Output>
      UpdateStaticObjectRequest: MessageTypeDefinition<_sfdb_v1_UpdateStaticObjectRequest, _sfdb_v1_UpdateStaticObjectRequest__Output>
      UpdateStaticObjectResponse: MessageTypeDefinition<_sfdb_v1_UpdateStaticObjectResponse, _sfdb_v1_UpdateStaticObjectResponse__Output>
      WaitForChangesRequest: MessageTypeDefinition<_sfdb_v1_WaitForChangesRequest, _sfdb_v1_WaitForChangesRequest__Output>
      WaitForChangesResponse: MessageTypeDefinition<_sfdb_v1_WaitForChangesResponse, _sfdb_v1_WaitForChangesResponse__Output>
      WatchReplicasRequest: MessageTypeDefinition<_sfdb_v1_WatchReplicasRequest, _sfdb_v1_WatchReplicasRequest__Output>
      WatchReplicasResponse: MessageTypeDefinition<_sfdb_v1_WatchReplicasResponse, _sfdb_v1_WatchReplicasResponse__Output>
      WorkItem: MessageTypeDefinition<_sfdb_v1_WorkItem, _sfdb_v1_WorkItem__Output>
      WorkItemState: EnumTypeDefinition
    }
  }
}

