// "Writes name real targets" as data: for every mutating RPC of the proto, what it names
// and what it answers when that does not exist. The table of docs/contract.md is rendered
// from this (renderRuleTable; test/property/targets.test.ts checks the page holds it),
// and the property test walks it, so an RPC added to the proto fails that test until it
// has a row.
import { IMMUTABLE_TYPES, UPGRADEABLE_TYPES } from '../../server/rpc/objects/types.js';

/** What a field names. */
export type TargetKind =
  | 'node'
  /** An object of the ObjectType in the check's `typeField` (a node, or a static object). */
  | 'typed object'
  /** The object of the RPC's own type (`Update<Type>`, `Delete<Type>`). */
  | 'own object'
  | 'IPAM'
  | 'blob'
  | 'work item'
  | 'blob transfer'
  | 'lease'
  | 'replica'
  | 'config key';

/**
 * What a call naming a missing target answers, nothing written in every case:
 * - NOT_FOUND, FAILED_PRECONDITION: the details begin with the field (`detail`, else `field`);
 * - PERMISSION_DENIED: a poke from something that is not a live registered replica;
 * - ABORTED: the proto's Conflict of an expected version;
 * - `false:<flag>`: OK with that response flag false (a removal finds nothing to remove).
 */
export type MissingAnswer = 'NOT_FOUND' | 'FAILED_PRECONDITION' | 'PERMISSION_DENIED' | 'ABORTED' | `false:${'deleted' | 'removed' | 'released'}`;

export interface TargetCheck {
  /** The request field, as the proto spells it; `events[].object_uuid` for each element, `fence.name` inside a message. */
  readonly field: string;
  readonly kind: TargetKind;
  /** The field holding the ObjectType of a `typed object` (`object_type`, `owner_type`, `events[].object_type`). */
  readonly typeField?: string;
  readonly missing: MissingAnswer;
  /** What the details begin with when it is not `field` (a message field: its top-level name). */
  readonly detail?: string;
  /** Empty means "none" (not checked). */
  readonly optional?: boolean;
  /** Fields set in the generated request (camelCase): an expected version, a value most generated ones fail validation for. */
  readonly patch?: Readonly<Record<string, unknown>>;
  /** When the rule holds (docs/contract.md), if not always. */
  readonly when?: string;
}

export interface Rule {
  readonly rpc: string;
  /** The docs/contract.md row it belongs to (the typed static-object RPCs share one per operation). */
  readonly row: string;
  /** Targets the write names; empty: it names none (it creates, or sets a value by key). */
  readonly checks: readonly TargetCheck[];
  /** For a write that names nothing: what it does instead. */
  readonly names?: string;
  /** docs/contract.md: what else the RPC answers about its target (not a missing one). */
  readonly note?: string;
}

const node = (field: string, missing: MissingAnswer, extra: Partial<TargetCheck> = {}): TargetCheck => ({ field, kind: 'node', missing, ...extra });
const typed = (field: string, typeField: string, missing: MissingAnswer): TargetCheck => ({ field, kind: 'typed object', typeField, missing });

const rule = (rpc: string, checks: TargetCheck[], extra: Partial<Rule> = {}): Rule => ({ rpc, row: `\`${rpc}\``, checks, ...extra });

const fence: TargetCheck = { field: 'fence.name', kind: 'lease', missing: 'FAILED_PRECONDITION', detail: 'fence' };
/** The optional fence of an application write (docs/contract.md, "Fenced writes"): checked first. */
const fenced: TargetCheck = { ...fence, optional: true };

const STATIC_TYPES: readonly string[] = [...IMMUTABLE_TYPES, ...UPGRADEABLE_TYPES];
const staticRules: Rule[] = [
  ...STATIC_TYPES.map((type) => rule(`Create${type}`, [fenced, node('node_uuid', 'NOT_FOUND', { optional: true })], { row: '`Create<Type>`' })),
  ...UPGRADEABLE_TYPES.map((type) => rule(`Update${type}`, [fenced, { field: 'uuid', kind: 'own object', missing: 'NOT_FOUND' }], { row: '`Update<Type>`' })),
  ...STATIC_TYPES.map((type) =>
    rule(`Delete${type}`, [fenced, { field: 'uuid', kind: 'own object', missing: 'false:deleted' }], {
      row: '`Delete<Type>`',
      note: 'removes the object with its state and attributes, in one transaction',
    }),
  ),
];

/** Every mutating RPC, in proto order but the typed static-object RPCs (by operation). Reads (client/methods.ts: `read`) have none. */
export const RULES: readonly Rule[] = [
  rule('CreateNode', [], { names: 'nothing: it creates the node' }),
  rule('UpdateNode', [node('uuid', 'NOT_FOUND')]),
  rule('DeleteNode', [node('uuid', 'false:deleted')], {
    note: 'removes the node with its heartbeat, daemon states, work items, the transfers it receives, its state and attributes, in one transaction; FAILED_PRECONDITION, nothing written, while objects are placed on it',
  }),
  rule('NodeHeartbeat', [node('node_uuid', 'NOT_FOUND')]),
  rule('SetNodeDaemonState', [node('node_uuid', 'NOT_FOUND')]),
  ...staticRules,
  rule('SetObjectState', [fenced, typed('uuid', 'object_type', 'NOT_FOUND')]),
  rule('DeleteObjectState', [fenced, typed('uuid', 'object_type', 'false:deleted')]),
  rule('SetObjectAttributes', [fenced, typed('uuid', 'object_type', 'NOT_FOUND')]),
  rule('DeleteObjectAttributes', [fenced, typed('uuid', 'object_type', 'false:deleted')]),
  rule('Enqueue', [fenced, node('node_uuid', 'NOT_FOUND')]),
  rule('Dequeue', [node('node_uuid', 'NOT_FOUND')]),
  rule('RenewClaim', [{ field: 'id', kind: 'work item', missing: 'NOT_FOUND' }]),
  rule('Resolve', [{ field: 'id', kind: 'work item', missing: 'NOT_FOUND' }]),
  rule('Release', [{ field: 'id', kind: 'work item', missing: 'NOT_FOUND' }]),
  rule('AcquireLease', [], { names: 'nothing: it creates the lease when there is none' }),
  rule('RenewLease', [{ field: 'name', kind: 'lease', missing: 'FAILED_PRECONDITION' }]),
  rule('ReleaseLease', [{ field: 'name', kind: 'lease', missing: 'false:released' }]),
  rule('ReserveAddress', [fenced, { field: 'ipam_uuid', kind: 'IPAM', missing: 'NOT_FOUND' }, typed('owner_uuid', 'owner_type', 'NOT_FOUND')]),
  rule('ReleaseAddress', [fenced, { field: 'ipam_uuid', kind: 'IPAM', missing: 'false:released' }]),
  rule('RecordReference', [fenced, typed('from_uuid', 'from_type', 'NOT_FOUND'), typed('to_uuid', 'to_type', 'NOT_FOUND')]),
  rule('RemoveReference', [fenced, typed('from_uuid', 'from_type', 'false:removed'), typed('to_uuid', 'to_type', 'false:removed')]),
  rule('RecordEvents', [{ ...typed('events[].object_uuid', 'events[].object_type', 'NOT_FOUND'), detail: 'events[i].object_uuid' }]),
  rule('PruneEvents', [], { names: 'nothing: it deletes events by age' }),
  rule('CreateBlobTransfer', [
    fenced,
    { field: 'blob_uuid', kind: 'blob', missing: 'NOT_FOUND' },
    node('node_uuid', 'NOT_FOUND'),
    node('source_node_uuid', 'NOT_FOUND', { optional: true }),
  ]),
  rule('UpdateBlobTransfer', [fenced, { field: 'id', kind: 'blob transfer', missing: 'NOT_FOUND' }]),
  rule('SetClusterConfig', [fenced, { field: 'key', kind: 'config key', missing: 'ABORTED', patch: { expectedVersion: '5' }, when: 'with expected_version > 0; otherwise it creates the key' }]),
  rule('RequeueExpiredClaims', [fence]),
  // older_than_ms 0 (the tier's setting): most generated ages are refused as below the liveness window.
  rule('SweepReplicaRegistry', [{ ...fence, patch: { olderThanMs: '0' } }]),
  rule('PruneChanges', [fence]),
  rule('PokeChanges', [{ field: 'replica_id', kind: 'replica', missing: 'PERMISSION_DENIED' }]),
];

const KIND_WORDS: Record<TargetKind, string> = {
  node: 'a node',
  'own object': 'the object',
  IPAM: 'an IPAM',
  blob: 'a blob',
  'typed object': 'an object of `{type}`',
  'work item': 'a work item',
  'blob transfer': 'a blob transfer',
  lease: 'a lease',
  replica: 'a live registered replica (with `owner_token`)',
  'config key': 'a key',
};

function kindWords(c: TargetCheck): string {
  return KIND_WORDS[c.kind].replace('{type}', c.typeField ?? '');
}

/** The answers of a row's checks, the fields of one code together. */
function answerWords(checks: readonly TargetCheck[]): string {
  const byCode = new Map<MissingAnswer, string[]>();
  for (const c of checks) byCode.set(c.missing, [...(byCode.get(c.missing) ?? []), c.detail ?? c.field]);
  return [...byCode]
    .map(([m, fields]) => {
      if (m.startsWith('false:')) return `OK, \`${m.slice('false:'.length)}: false\`, nothing written`;
      if (m === 'NOT_FOUND' || m === 'FAILED_PRECONDITION') return `${m} ${fields.map((f) => `\`${f}: …\``).join(' or ')}`;
      if (m === 'ABORTED') return 'ABORTED (Conflict), nothing written';
      return `${m}, nothing written`;
    })
    .join('; ');
}

/** The table of docs/contract.md: one row per mutating RPC (the typed static-object RPCs one per operation). */
export function renderRuleTable(): string {
  const lines = ['| RPC | names (field → must be) | when it does not exist |', '|---|---|---|'];
  const seen = new Set<string>();
  for (const r of RULES) {
    if (seen.has(r.row)) continue;
    seen.add(r.row);
    if (r.checks.length === 0) {
      lines.push(`| ${r.row} | ${r.names ?? 'nothing'} | — |`);
      continue;
    }
    const names = r.checks
      .map((c) => `\`${c.field}\` → ${kindWords(c)}${c.optional ? ' (when set)' : ''}${c.when ? ` (${c.when})` : ''}`)
      .join('; ');
    lines.push(`| ${r.row} | ${names} | ${answerWords(r.checks)}${r.note ? `. ${r.note[0]?.toUpperCase()}${r.note.slice(1)}` : ''} |`);
  }
  return lines.join('\n');
}
