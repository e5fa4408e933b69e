// SetObjectAttributes' write: nodes write their metrics as attributes on a period, so
// these calls are group-committed (server/db/group-commit.ts), one statement per window
// and kind (node attributes, other objects' attributes); the alone path is the one-call
// statement the handler runs when grouping is off, or the exact path when an object is
// near its bound. A write naming an object that does not exist is refused NOT_FOUND, and
// nothing is written for it (docs/contract.md, "Writes name real targets").
import { ALONE, Refusal, inLockOrder, ownedBy } from '../../db/group-commit.js';
import type { BatchKind } from '../../db/group-commit.js';
import type { Sql } from '../../db/sql.js';
import { InvalidArgumentError } from '../../errors.js';
import { existingTargets, lockTargets, missing } from '../targets.js';
import * as q from './attribute-queries.js';
import { refusingBadJson } from './json-check.js';

/** One SetObjectAttributes on its own: one statement nearly always, else the exact path. */
export async function setAttributesAlone(sql: Sql, { type, uuid, pairs }: q.AttributeWrite): Promise<void> {
  // One statement, no transaction, when the object exists and has room (nearly always).
  if (await refusingBadJson('attributes', () => q.upsertAttributesIfRoom(sql, type, uuid, pairs))) return;
  // The exact path: says whether the object is missing or the bound is reached.
  await sql.transaction(async (tx) => {
    // The object must exist, and stays while we write (its delete takes these rows with it).
    await lockTargets(tx, [{ field: 'uuid', type, uuid }]);
    await refusingBadJson('attributes', () => q.upsertAttributes(tx, type, uuid, pairs));
    const total = await q.countAttributes(tx, type, uuid);
    if (total > q.MAX_ATTRIBUTES_PER_OBJECT) {
      // Rolled back: nothing written.
      throw new InvalidArgumentError('attributes', `${type} ${uuid} would have ${total} attributes; at most ${q.MAX_ATTRIBUTES_PER_OBJECT}`);
    }
  });
}

/**
 * The attribute writes of a window, all to nodes or all to other objects (`nodes`), in one
 * statement that writes only objects that exist, each read under a shared lock
 * (server/rpc/targets.ts), and have room. Batches run without a call's deadline: they
 * answer many calls.
 */
export function attributesKind(sql: Sql, name: string, nodes: boolean): BatchKind<q.AttributeWrite, void> {
  const key = (w: q.AttributeWrite): string => `${w.type}/${w.uuid}`;
  return {
    name,
    // A node's attributes are its metrics, written by every node on a period.
    periodic: nodes,
    async batch(rows, owner) {
      const s = ownedBy(sql, owner);
      const written = await q.upsertAttributesOfMany(s, nodes, inLockOrder(rows, key));
      // Not written: the object is missing (refused here), or near its bound (the exact
      // path says so). One more statement, only when some call was not written.
      const unwritten = rows.filter((w) => !written.has(key(w)));
      const targets = unwritten.map((w) => ({ field: 'uuid', type: w.type, uuid: w.uuid }));
      const found = await existingTargets(s, targets, false);
      const refused = new Map(targets.filter((_, i) => !found.has(i)).map((t) => [`${t.type}/${t.uuid}`, missing(t)]));
      return rows.map((w) => {
        if (written.has(key(w))) return undefined;
        const err = refused.get(key(w));
        return err ? new Refusal(err) : ALONE;
      });
    },
    alone: (w, owner) => setAttributesAlone(ownedBy(sql, owner), w),
  };
}
