// The proto ObjectType enum (proto/object-types.ts) and the lower_snake strings the tables
// store for it: the tier's one place that maps between them; table text never reaches a
// client unmapped.
import { OBJECT_TYPES, objectTypeColumn } from '@sfdb/proto/object-types';
import type { ObjectTypeName } from '@sfdb/proto/object-types';
import * as v from '../validate.js';

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
