// The JSON CHECK constraints of object_values and object_attributes (JSON_VALID): text
// that JSON.parse took and MariaDB refuses is the caller's bad input, not an outage.
// Shared by the static-value handlers and the attribute writes, which import no handler.
import { sqlErrno } from '../../db/retryable.js';
import { InvalidArgumentError } from '../../errors.js';

/** A CHECK constraint failed: MariaDB's JSON_VALID refused text that JSON.parse took. */
const ER_CONSTRAINT_FAILED = 4025;

/** Runs a write; MariaDB refusing the JSON becomes INVALID_ARGUMENT on `field` (nothing written). */
export async function refusingBadJson<T>(field: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (sqlErrno(err) === ER_CONSTRAINT_FAILED) throw new InvalidArgumentError(field, 'not valid JSON');
    throw err;
  }
}
