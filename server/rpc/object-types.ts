// The proto ObjectType enum and the lower_snake strings the tables store for it. The one
// place that maps between them; table text never reaches a client unmapped.
import * as v from '../validate.js';

/** Every ObjectType name but OBJECT_TYPE_UNSPECIFIED, in proto order. */
export const OBJECT_TYPES = [
  'INSTANCE',
  'NETWORK',
  'NETWORK_INTERFACE',
  'IPAM',
  'AGENT_OPERATION',
  'NODE',
  'BLOB',
  'ARTIFACT',
  'UPLOAD',
  'NAMESPACE',
] as const;

export type ObjectTypeName = (typeof OBJECT_TYPES)[number];

/** 'NETWORK_INTERFACE' -> 'network_interface': the value stored in object_type columns. */
export function objectTypeColumn(name: ObjectTypeName): string {
  return name.toLowerCase();
}

const BY_COLUMN: ReadonlyMap<string, ObjectTypeName> = new Map(OBJECT_TYPES.map((t) => [objectTypeColumn(t), t]));

/** 'network_interface' -> 'NETWORK_INTERFACE'. A value no enum name maps to is a server bug. */
export function objectTypeFromColumn(column: string): ObjectTypeName {
  const name = BY_COLUMN.get(column);
  if (!name) throw new Error(`unknown object type ${JSON.stringify(column)} in the database`);
  return name;
}

/** A required ObjectType request field, validated and mapped to its column value. */
export function objectTypeField(field: string, value: string | number): string {
  return objectTypeColumn(v.requiredEnum(field, value, OBJECT_TYPES));
}
