// Objects: typed calls. Static values per type (createInstance, getBlob, listIPAMs,
// updateNamespace, ...) built from the one list of types (proto/object-types.ts); state
// and attributes generic, keyed by ObjectType. Point reads answer undefined for "not
// found"; an outage throws DatabaseUnavailable. The typed Get of a static type reads
// through the client's static-object cache (../cache.ts) and answers a deep-frozen value;
// this process's update and delete evict. State and attributes are never cached.
import type { ObjectState__Output } from '@sfdb/proto/gen/sfdb/v1/ObjectState';
import type { ObjectStateRecord__Output } from '@sfdb/proto/gen/sfdb/v1/ObjectStateRecord';
import type { ObjectType__Output } from '@sfdb/proto/gen/sfdb/v1/ObjectType';
import type { StaticObject__Output } from '@sfdb/proto/gen/sfdb/v1/StaticObject';
import { IMMUTABLE_TYPES, STATIC_OBJECT_TYPES, UPGRADEABLE_TYPES } from '@sfdb/proto/object-types';
import type { ImmutableTypeName, StaticTypeName, UpgradeableTypeName } from '@sfdb/proto/object-types';
import { evictAfter, readThrough } from '../read-through.js';
import type { StaticObjectCache } from '../cache.js';
import { fenceField } from '../fence.js';
import type { FencedCallOptions } from '../fence.js';
import type { CallOptions, Transport } from '../transport.js';
import type { Page } from './nodes.js';

/** An object type (also for state and attributes, NODE included). Other families use this one. */
export type ObjectType = Exclude<ObjectType__Output, 'OBJECT_TYPE_UNSPECIFIED'>;
export type ObjectState = Exclude<ObjectState__Output, 'OBJECT_STATE_UNSPECIFIED'>;
export type ObjectStateRecord = ObjectStateRecord__Output;

/** Parsed static values: a JSON object. */
export type StaticValues = Record<string, unknown>;

/** A static object as stored, with its static values parsed; `staticValuesJson` is the stored text. */
export interface StaticObject {
  uuid: string;
  /** '' when none. */
  namespace: string;
  /** The node it is placed on; '' when none. */
  nodeUuid: string;
  /** A decimal string; grows by one on every update (upgradeable types only). */
  version: string;
  staticValues: StaticValues;
  /** Exactly the JSON text the server stored and answered. */
  staticValuesJson: string;
  /** Top-level keys of the static values that hold secrets: such an object is never cached. */
  secretFields: readonly string[];
  createdAt: string;
  updatedAt: string;
}

export interface CreateStaticObjectInput {
  /** Chosen by the caller: a retried create answers `created: false`. */
  uuid: string;
  namespace?: string;
  nodeUuid?: string;
  /** A JSON-able object, at most 64 KiB as JSON. */
  staticValues: object;
  /**
   * Its top-level keys that hold secrets (keys, passwords; at most 16). The object is then
   * never put in any client's cache: every read is an RPC, and nothing keeps it after.
   */
  secretFields?: readonly string[];
}

export interface ListStaticObjectsInput {
  /** Scope; either, both or neither. */
  namespace?: string;
  nodeUuid?: string;
  pageSize?: number;
  pageToken?: string;
}

export interface ListObjectsByStateInput {
  objectType: ObjectType;
  state: ObjectState;
  /** Only objects placed on this node. */
  nodeUuid?: string;
  pageSize?: number;
  pageToken?: string;
}

/** Immutable after creation: create, get, delete, list. */
export type ImmutableObjectTypeName = ImmutableTypeName;
/** Upgradeable: also update. */
export type UpgradeableObjectTypeName = UpgradeableTypeName;

export interface UpdateStaticObjectOptions extends FencedCallOptions {
  /** Update only at this version (else Conflict); absent or '0' means any. */
  expectedVersion?: string;
  /** The secret keys of the new static values (replaces the old list; absent: none). */
  secretFields?: readonly string[];
}

/** createX, getX, deleteX, listXs for every static type, updateX for the upgradeable ones. */
export type StaticObjectsApi = {
  [P in StaticTypeName as `create${P}`]: (
    input: CreateStaticObjectInput,
    opts?: FencedCallOptions,
  ) => Promise<{ object: StaticObject; created: boolean }>;
} & {
  /** Through the static-object cache: the answer is frozen, never to be mutated. */
  [P in StaticTypeName as `get${P}`]: (uuid: string, opts?: CallOptions) => Promise<Readonly<StaticObject> | undefined>;
} & {
  [P in StaticTypeName as `delete${P}`]: (uuid: string, opts?: FencedCallOptions) => Promise<boolean>;
} & {
  [P in StaticTypeName as `list${P}s`]: (scope?: ListStaticObjectsInput, opts?: CallOptions) => Promise<Page<StaticObject>>;
} & {
  [P in UpgradeableObjectTypeName as `update${P}`]: (
    uuid: string,
    staticValues: object,
    opts?: UpdateStaticObjectOptions,
  ) => Promise<StaticObject>;
};

export function toStaticObject(o: StaticObject__Output): StaticObject {
  return {
    uuid: o.uuid,
    namespace: o.namespace,
    nodeUuid: o.nodeUuid,
    version: o.version,
    staticValues: JSON.parse(o.staticValues) as StaticValues,
    staticValuesJson: o.staticValues,
    secretFields: o.secretFields,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

function required<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`the server answered without ${what}`);
  return value;
}

function staticMethods(t: Transport, cache: StaticObjectCache | undefined, name: StaticTypeName): [string, unknown][] {
  const type = STATIC_OBJECT_TYPES[name];
  const methods: [string, unknown][] = [
    [
      `create${name}`,
      async (input: CreateStaticObjectInput, opts?: FencedCallOptions) => {
        const { staticValues, secretFields, ...rest } = input;
        const request = { ...rest, staticValues: JSON.stringify(staticValues), secretFields: [...(secretFields ?? [])], ...fenceField(opts) };
        const r = await t.call(`Create${name}`, request, opts);
        return { object: toStaticObject(required(r.object, 'object')), created: r.created };
      },
    ],
    [
      `get${name}`,
      (uuid: string, opts?: CallOptions) =>
        readThrough(
          cache,
          type,
          uuid,
          async () => {
            const r = await t.call(`Get${name}`, { uuid }, opts);
            return r.found && r.object ? toStaticObject(r.object) : undefined;
          },
          // An object holding secrets is answered and forgotten, never cached.
          (o) => o.secretFields.length === 0,
        ),
    ],
    [
      `delete${name}`,
      (uuid: string, opts?: FencedCallOptions) =>
        evictAfter(cache, type, uuid, async () => (await t.call(`Delete${name}`, { uuid, ...fenceField(opts) }, opts)).deleted),
    ],
    [
      `list${name}s`,
      async (scope: ListStaticObjectsInput = {}, opts?: CallOptions) => {
        const r = await t.call(`List${name}s`, scope, opts);
        return { items: r.objects.map(toStaticObject), nextPageToken: r.nextPageToken };
      },
    ],
  ];
  return methods;
}

function updateMethod(t: Transport, cache: StaticObjectCache | undefined, name: UpgradeableObjectTypeName): [string, unknown] {
  return [
    `update${name}`,
    async (uuid: string, staticValues: object, opts?: UpdateStaticObjectOptions) => {
      const request = {
        uuid,
        staticValues: JSON.stringify(staticValues),
        expectedVersion: opts?.expectedVersion ?? '0',
        secretFields: [...(opts?.secretFields ?? [])],
        ...fenceField(opts),
      };
      const r = await evictAfter(cache, STATIC_OBJECT_TYPES[name], uuid, () => t.call(`Update${name}`, request, opts), (a) => a.changeSeq);
      return toStaticObject(required(r.object, 'object'));
    },
  ];
}

/** Attribute values come back as JSON text; this parses them. */
function parseAttributes(attributes: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(attributes).map(([key, json]) => [key, JSON.parse(json) as unknown]));
}

/** `cache`: the static-object cache the typed Gets read through (undefined: none). */
export function objectsApi(t: Transport, cache?: StaticObjectCache) {
  // The one cast: names built from the list of types, their shapes checked by StaticObjectsApi.
  const staticApi = Object.fromEntries([
    ...[...IMMUTABLE_TYPES, ...UPGRADEABLE_TYPES].flatMap((name) => staticMethods(t, cache, name)),
    ...UPGRADEABLE_TYPES.map((name) => updateMethod(t, cache, name)),
  ]) as StaticObjectsApi;

  return {
    ...staticApi,

    async getObjectState(objectType: ObjectType, uuid: string, opts?: CallOptions): Promise<ObjectStateRecord | undefined> {
      const r = await t.call('GetObjectState', { objectType, uuid }, opts);
      return r.found && r.state ? r.state : undefined;
    },

    /** Sets the state; the object must exist (NotFound otherwise). Its node is copied from its static values. */
    async setObjectState(
      objectType: ObjectType,
      uuid: string,
      state: ObjectState,
      message = '',
      opts?: FencedCallOptions,
    ): Promise<ObjectStateRecord> {
      const r = await t.call('SetObjectState', { objectType, uuid, state, message, ...fenceField(opts) }, opts);
      return required(r.state, 'state');
    },

    async deleteObjectState(objectType: ObjectType, uuid: string, opts?: FencedCallOptions): Promise<boolean> {
      return (await t.call('DeleteObjectState', { objectType, uuid, ...fenceField(opts) }, opts)).deleted;
    },

    async listObjectsByState(input: ListObjectsByStateInput, opts?: CallOptions): Promise<Page<ObjectStateRecord>> {
      const r = await t.call('ListObjectsByState', input, opts);
      return { items: r.states, nextPageToken: r.nextPageToken };
    },

    /** The named attributes (all when `keys` is empty or absent), parsed. Missing keys are absent. */
    async getObjectAttributes(
      objectType: ObjectType,
      uuid: string,
      keys: readonly string[] = [],
      opts?: CallOptions,
    ): Promise<Record<string, unknown>> {
      const r = await t.call('GetObjectAttributes', { objectType, uuid, fieldMask: [...keys] }, opts);
      return parseAttributes(r.attributes);
    },

    /** Writes each key's value as JSON (≤ 100 keys, each ≤ 64 KiB); other keys are left alone. Answers keys written. */
    async setObjectAttributes(
      objectType: ObjectType,
      uuid: string,
      attributes: Record<string, unknown>,
      opts?: FencedCallOptions,
    ): Promise<number> {
      // JSON.stringify(undefined) is undefined: sent as '', which the server refuses, naming the field.
      const json = Object.fromEntries(Object.entries(attributes).map(([key, value]) => [key, JSON.stringify(value) ?? '']));
      return (await t.call('SetObjectAttributes', { objectType, uuid, attributes: json, ...fenceField(opts) }, opts)).written;
    },

    /** Deletes the named attributes, or all of the object's when `keys` is empty or absent. */
    async deleteObjectAttributes(
      objectType: ObjectType,
      uuid: string,
      keys: readonly string[] = [],
      opts?: FencedCallOptions,
    ): Promise<boolean> {
      return (await t.call('DeleteObjectAttributes', { objectType, uuid, fieldMask: [...keys], ...fenceField(opts) }, opts)).deleted;
    },
  };
}

export type ObjectsApi = ReturnType<typeof objectsApi>;
