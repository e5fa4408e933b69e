// Blob transfers: typed calls. Byte counts are decimal strings (int64) in answers.
import type { BlobTransfer__Output } from '@sfdb/proto/gen/sfdb/v1/BlobTransfer';
import type { TransferState__Output } from '@sfdb/proto/gen/sfdb/v1/TransferState';
import { fenceField } from '../fence.js';
import type { FencedCallOptions } from '../fence.js';
import type { CallOptions, Transport } from '../transport.js';

export type BlobTransfer = BlobTransfer__Output;
export type BlobTransferState = Exclude<TransferState__Output, 'TRANSFER_STATE_UNSPECIFIED'>;

export interface CreateBlobTransferInput {
  /** Chosen by the caller (a uuid): a retried create answers `created: false`. */
  id: string;
  blobUuid: string;
  /** The node that receives the blob. */
  nodeUuid: string;
  /** The node it comes from; omitted for an external source. */
  sourceNodeUuid?: string;
  /** 0 when unknown. */
  bytesTotal?: number | string;
}

export interface UpdateBlobTransferInput {
  state: BlobTransferState;
  /** At most bytesTotal when that is known (non-zero). */
  bytesDone?: number | string;
  message?: string;
}

export function transfersApi(t: Transport) {
  return {
    /** Creates a queued transfer; same id and values: `created: false`; other values: Conflict. */
    async createBlobTransfer(input: CreateBlobTransferInput, opts?: FencedCallOptions): Promise<{ transfer: BlobTransfer; created: boolean }> {
      const r = await t.call('CreateBlobTransfer', { ...input, bytesTotal: input.bytesTotal ?? 0, ...fenceField(opts) }, opts);
      return { transfer: r.transfer as BlobTransfer, created: r.created };
    },

    /**
     * A node's transfers in `states` (default: the active ones, queued and running),
     * grouped by state and oldest first; at most `limit` (1..1000, default 100).
     */
    async getBlobTransfersForNode(
      nodeUuid: string,
      opts?: CallOptions & { states?: readonly BlobTransferState[]; limit?: number },
    ): Promise<BlobTransfer[]> {
      const r = await t.call('GetBlobTransfersForNode', { nodeUuid, states: [...(opts?.states ?? [])], limit: opts?.limit ?? 0 }, opts);
      return r.transfers;
    },

    /**
     * Sets state, progress and message. A missing transfer is NotFound; a finished one
     * (COMPLETE, FAILED) is a Conflict, unless this repeats the update that finished it.
     */
    async updateBlobTransfer(id: string, update: UpdateBlobTransferInput, opts?: FencedCallOptions): Promise<BlobTransfer> {
      const r = await t.call('UpdateBlobTransfer', { id, state: update.state, bytesDone: update.bytesDone ?? 0, message: update.message ?? '', ...fenceField(opts) }, opts);
      return r.transfer as BlobTransfer;
    },
  };
}

export type TransfersApi = ReturnType<typeof transfersApi>;
