// References between objects: typed calls.
import type { Reference__Output } from '@sfdb/proto/gen/sfdb/v1/Reference';
import { fenceField } from '../fence.js';
import type { FencedCallOptions } from '../fence.js';
import type { CallOptions, Transport } from '../transport.js';
import type { ObjectType } from './objects.js';

export type ObjectReference = Reference__Output;

/** "from refers to to, as relation" (relation: lower-case name, ≤ 64 characters). */
export interface ObjectReferenceKey {
  fromType: ObjectType;
  fromUuid: string;
  toType: ObjectType;
  toUuid: string;
  relation: string;
}

export function referencesApi(t: Transport) {
  return {
    /** Records a reference; false when it already existed (idempotent). */
    async recordReference(ref: ObjectReferenceKey, opts?: FencedCallOptions): Promise<boolean> {
      return (await t.call('RecordReference', { ...ref, ...fenceField(opts) }, opts)).created;
    },

    /** Removes a reference; false when there was none. */
    async removeReference(ref: ObjectReferenceKey, opts?: FencedCallOptions): Promise<boolean> {
      return (await t.call('RemoveReference', { ...ref, ...fenceField(opts) }, opts)).removed;
    },

    /** What an object refers to (at most `limit`, 1..1000, default 1000). */
    async getReferencesFrom(
      objectType: ObjectType,
      uuid: string,
      opts?: CallOptions & { limit?: number },
    ): Promise<ObjectReference[]> {
      return (await t.call('GetReferencesFrom', { objectType, uuid, limit: opts?.limit ?? 0 }, opts)).references;
    },

    /** What refers to an object (at most `limit`, 1..1000, default 1000). */
    async getReferencesTo(
      objectType: ObjectType,
      uuid: string,
      opts?: CallOptions & { limit?: number },
    ): Promise<ObjectReference[]> {
      return (await t.call('GetReferencesTo', { objectType, uuid, limit: opts?.limit ?? 0 }, opts)).references;
    },
  };
}

export type ReferencesApi = ReturnType<typeof referencesApi>;
