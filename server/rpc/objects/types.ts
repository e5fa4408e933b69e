// The static-object types: one table from the RPC name part to the object_type column
// value. Every Create/Get/Delete/List/Update handler is built from this table.

/** Immutable after creation: Create, Get, Delete, List. */
export const IMMUTABLE_TYPES = ['Instance', 'Network', 'NetworkInterface', 'IPAM', 'AgentOperation'] as const;
/** Upgradeable, rare writes: also Update. */
export const UPGRADEABLE_TYPES = ['Blob', 'Artifact', 'Upload', 'Namespace'] as const;

export type ImmutableTypeName = (typeof IMMUTABLE_TYPES)[number];
export type UpgradeableTypeName = (typeof UPGRADEABLE_TYPES)[number];
export type StaticTypeName = ImmutableTypeName | UpgradeableTypeName;

/** RPC name part -> object_values.object_type (the lower_snake ObjectType name). */
export const OBJECT_TYPE_COLUMN: Readonly<Record<StaticTypeName, string>> = {
  Instance: 'instance',
  Network: 'network',
  NetworkInterface: 'network_interface',
  IPAM: 'ipam',
  AgentOperation: 'agent_operation',
  Blob: 'blob',
  Artifact: 'artifact',
  Upload: 'upload',
  Namespace: 'namespace',
};

/** Every static-object RPC; the plural of each type name is the name plus "s". */
export type StaticObjectMethod =
  | `Create${StaticTypeName}`
  | `Get${StaticTypeName}`
  | `Delete${StaticTypeName}`
  | `List${StaticTypeName}s`
  | `Update${UpgradeableTypeName}`;
