// Original file: proto/sfdb/v1/common.proto

export const ObjectType = {
  OBJECT_TYPE_UNSPECIFIED: 'OBJECT_TYPE_UNSPECIFIED',
  /**
   * Immutable after creation.
   */
  INSTANCE: 'INSTANCE',
  NETWORK: 'NETWORK',
  NETWORK_INTERFACE: 'NETWORK_INTERFACE',
  IPAM: 'IPAM',
  AGENT_OPERATION: 'AGENT_OPERATION',
  /**
   * Upgradeable, rare writes.
   */
  NODE: 'NODE',
  BLOB: 'BLOB',
  ARTIFACT: 'ARTIFACT',
  UPLOAD: 'UPLOAD',
  NAMESPACE: 'NAMESPACE',
} as const;

export type ObjectType =
  | 'OBJECT_TYPE_UNSPECIFIED'
  | 0
  /**
   * Immutable after creation.
   */
  | 'INSTANCE'
  | 1
  | 'NETWORK'
  | 2
  | 'NETWORK_INTERFACE'
  | 3
  | 'IPAM'
  | 4
  | 'AGENT_OPERATION'
  | 5
  /**
   * Upgradeable, rare writes.
   */
  | 'NODE'
  | 6
  | 'BLOB'
  | 7
  | 'ARTIFACT'
  | 8
  | 'UPLOAD'
  | 9
  | 'NAMESPACE'
  | 10

export type ObjectType__Output = typeof ObjectType[keyof typeof ObjectType]
