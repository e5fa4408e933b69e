// The static-object RPCs: every Create/Get/Delete/List/Update handler is built from the one
// list of static-object types (proto/object-types.ts) and the column value of each.
import { STATIC_OBJECT_TYPES, objectTypeColumn } from '@sfdb/proto/object-types';
import type { StaticTypeName, UpgradeableTypeName } from '@sfdb/proto/object-types';

export { IMMUTABLE_TYPES, UPGRADEABLE_TYPES } from '@sfdb/proto/object-types';
export type { StaticTypeName, UpgradeableTypeName } from '@sfdb/proto/object-types';

/** RPC name part -> object_values.object_type (the lower_snake ObjectType name). */
export const OBJECT_TYPE_COLUMN: Readonly<Record<StaticTypeName, string>> = Object.freeze(
  Object.fromEntries(Object.entries(STATIC_OBJECT_TYPES).map(([name, type]) => [name, objectTypeColumn(type)])) as Record<StaticTypeName, string>,
);

/** Every static-object RPC; the plural of each type name is the name plus "s". */
export type StaticObjectMethod =
  | `Create${StaticTypeName}`
  | `Get${StaticTypeName}`
  | `Delete${StaticTypeName}`
  | `List${StaticTypeName}s`
  | `Update${UpgradeableTypeName}`;
