// Lease fences on writes, as the client passes them: a singleton job (the holder of a
// LeaseKeeper's lease) hands its fence to each write it makes as holder —
// `{ fence: keeper.requireFence() }` — and the tier writes only while that lease is still
// held at that token (docs/contract.md, "Fenced writes"); otherwise the call rejects with
// `Fenced` and nothing was written.
import type { CallOptions } from './transport.js';

/** A lease as presented with a write: `holder` holds `name` at `token` (a decimal string). */
export interface LeaseFence {
  name: string;
  holder: string;
  token: string;
}

/** The options of a write that takes a fence: a call's options and, optionally, the lease it is conditional on. */
export type FencedCallOptions = CallOptions & {
  /** Write only while this lease is held (LeaseKeeper.requireFence()); else `Fenced`, nothing written. */
  fence?: LeaseFence;
};

/** The request's `fence` field from a call's options: present only when given. */
export function fenceField(opts: FencedCallOptions | undefined): { fence?: LeaseFence } {
  return opts?.fence ? { fence: opts.fence } : {};
}
