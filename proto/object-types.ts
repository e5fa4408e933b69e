// The object types, written once for the tier, the client and the tools: every proto
// ObjectType with whether it is immutable after creation or upgradeable (docs/client.md, "Static-object cache"), the
// static-object types among them by their RPC name part (CreateInstance, GetIPAM…), and
// the lower_snake text the tables and the change-feed topics store for a type.
import type { ObjectType__Output } from './gen/sfdb/v1/ObjectType.js';

export type Mutability = 'immutable' | 'upgradeable';

/**
 * Every ObjectType but OBJECT_TYPE_UNSPECIFIED, in proto order, and its mutability (the
 * client cache's TTL tier). The compiler checks that every enum value is here.
 */
export const OBJECT_TYPE_MUTABILITY = Object.freeze({
  INSTANCE: 'immutable',
  NETWORK: 'immutable',
  NETWORK_INTERFACE: 'immutable',
  IPAM: 'immutable',
  AGENT_OPERATION: 'immutable',
  NODE: 'upgradeable',
  BLOB: 'upgradeable',
  ARTIFACT: 'upgradeable',
  UPLOAD: 'upgradeable',
  NAMESPACE: 'upgradeable',
} as const satisfies Record<Exclude<ObjectType__Output, 'OBJECT_TYPE_UNSPECIFIED'>, Mutability>);

export type ObjectTypeName = keyof typeof OBJECT_TYPE_MUTABILITY;

/** Every ObjectType name but OBJECT_TYPE_UNSPECIFIED, in proto order. */
export const OBJECT_TYPES = Object.freeze(Object.keys(OBJECT_TYPE_MUTABILITY) as ObjectTypeName[]);

/**
 * The static-object types by RPC name part, and their ObjectType. Each has Create, Get,
 * Delete and List RPCs, and Update when it is upgradeable. Nodes are not among them: they
 * have RPCs of their own.
 */
export const STATIC_OBJECT_TYPES = Object.freeze({
  Instance: 'INSTANCE',
  Network: 'NETWORK',
  NetworkInterface: 'NETWORK_INTERFACE',
  IPAM: 'IPAM',
  AgentOperation: 'AGENT_OPERATION',
  Blob: 'BLOB',
  Artifact: 'ARTIFACT',
  Upload: 'UPLOAD',
  Namespace: 'NAMESPACE',
} as const satisfies Record<string, Exclude<ObjectTypeName, 'NODE'>>);

export type StaticTypeName = keyof typeof STATIC_OBJECT_TYPES;
/** A static type's mutability, from OBJECT_TYPE_MUTABILITY. */
export type MutabilityOf<N extends StaticTypeName> = (typeof OBJECT_TYPE_MUTABILITY)[(typeof STATIC_OBJECT_TYPES)[N]];
/** Static-object types immutable after creation: Create, Get, Delete, List. */
export type ImmutableTypeName = { [N in StaticTypeName]: MutabilityOf<N> extends 'immutable' ? N : never }[StaticTypeName];
/** Static-object types with rare writes: also Update. */
export type UpgradeableTypeName = Exclude<StaticTypeName, ImmutableTypeName>;

const STATIC_NAMES = Object.keys(STATIC_OBJECT_TYPES) as StaticTypeName[];
const isImmutable = (name: StaticTypeName): name is ImmutableTypeName => OBJECT_TYPE_MUTABILITY[STATIC_OBJECT_TYPES[name]] === 'immutable';

export const IMMUTABLE_TYPES: readonly ImmutableTypeName[] = Object.freeze(STATIC_NAMES.filter(isImmutable));
export const UPGRADEABLE_TYPES: readonly UpgradeableTypeName[] = Object.freeze(STATIC_NAMES.filter((n): n is UpgradeableTypeName => !isImmutable(n)));

/** 'NETWORK_INTERFACE' → 'network_interface': the value object_type columns store. */
export function objectTypeColumn(name: ObjectTypeName): string {
  return name.toLowerCase();
}
