// TODO(foundation): implement.
import type { Handlers } from '../context.js';

const todo = (): Promise<never> => Promise.reject(new Error('not implemented'));

export const transferHandlers: Handlers<'CreateBlobTransfer' | 'GetBlobTransfersForNode' | 'UpdateBlobTransfer'> = {
  CreateBlobTransfer: todo,
  GetBlobTransfersForNode: todo,
  UpdateBlobTransfer: todo,
};
