// The contract's error table (proto/errors.ts) is the one place both sides read: every
// status has one row; every error class of the tier answers a status its row says the
// tier answers; and a refusal made on the tier arrives at the client as the class its row
// names, with the structured parts (field, pushback, no effect) read from the trailers.
import { Metadata, status } from '@grpc/grpc-js';
import type { ServiceError } from '@grpc/grpc-js';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import * as client from '../../client/errors.js';
import { ERROR_TABLE, ERROR_TRAILERS, errorRow, errorStatus, errorField, noEffect, pushbackMs } from '../../proto/errors.js';
import {
  ConflictError,
  DeadlineExceededError,
  FailedPreconditionError,
  FencedError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  ResourceExhaustedError,
  TooLargeError,
  UnavailableError,
} from '../../server/errors.js';
import { toServiceError } from '../../server/grpc/error-status.js';
import { toUnavailable } from '../../server/db/failures.js';
import { DeadlinePassedError, ER_QUERY_INTERRUPTED } from '../../server/db/watchdog.js';

const log = pino({ level: 'silent' });

/** The answer as the client receives it: grpc-js gives the status's metadata as the error's trailers. */
function received(answer: ReturnType<typeof toServiceError>): ServiceError {
  const code = answer.code as status;
  return Object.assign(new Error(`${code} ${answer.details}`), { code, details: answer.details ?? '', metadata: answer.metadata ?? new Metadata() });
}

/** One of each error the tier throws, the status it answers and the client class it becomes. */
const CASES: [string, Error, keyof typeof status, new (...args: never[]) => client.DatabaseError][] = [
  ['InvalidArgumentError', new InvalidArgumentError('events[2].extra', 'not JSON'), 'INVALID_ARGUMENT', client.InvalidArgument],
  ['NotFoundError', new NotFoundError('node_uuid', 'node 5f0c does not exist'), 'NOT_FOUND', client.NotFound],
  ['ConflictError exists', new ConflictError('exists with other values'), 'ALREADY_EXISTS', client.Conflict],
  ['ConflictError version', new ConflictError('version moved', 'version'), 'ABORTED', client.Conflict],
  ['FencedError', new FencedError('stale epoch'), 'FAILED_PRECONDITION', client.Fenced],
  ['FailedPreconditionError', new FailedPreconditionError('objects placed on it'), 'FAILED_PRECONDITION', client.Fenced],
  ['TooLargeError', new TooLargeError('page instead'), 'OUT_OF_RANGE', client.OutOfRange],
  ['PermissionDeniedError', new PermissionDeniedError('not a replica'), 'PERMISSION_DENIED', client.PermissionDenied],
  ['ResourceExhaustedError', new ResourceExhaustedError('waiters at cap', 250), 'RESOURCE_EXHAUSTED', client.DatabaseUnavailable],
  ['UnavailableError', new UnavailableError('ECONNREFUSED'), 'UNAVAILABLE', client.DatabaseUnavailable],
  ['DeadlineExceededError', new DeadlineExceededError('deadline exceeded'), 'DEADLINE_EXCEEDED', client.DatabaseUnavailable],
  ['an unexpected error', new Error('bug'), 'INTERNAL', client.Internal],
];

describe('the error table', () => {
  it('has one row for every status but OK, found by its code', () => {
    const names = Object.keys(status).filter((k) => Number.isNaN(Number(k)) && k !== 'OK');
    expect(Object.keys(ERROR_TABLE).sort()).toEqual(names.sort());
    for (const name of names) expect(errorRow(status[name as keyof typeof status])).toBe(ERROR_TABLE[name as keyof typeof ERROR_TABLE]);
    expect(errorRow(status.OK)).toBeUndefined();
    expect(errorRow(99)).toBeUndefined();
  });

  it('names a client class that exists for every row', () => {
    for (const row of Object.values(ERROR_TABLE)) expect(client[row.client].name).toBe(row.client);
  });

  it('the statuses the tier answers are exactly those of its error classes', () => {
    const answered = new Set(CASES.map(([, , name]) => name));
    const tier = Object.entries(ERROR_TABLE).filter(([, row]) => row.tier).map(([name]) => name);
    expect([...answered].sort()).toEqual(tier.sort());
  });

  it('retries UNAVAILABLE and RESOURCE_EXHAUSTED only', () => {
    const retried = Object.entries(ERROR_TABLE).filter(([, row]) => row.retry !== 'never').map(([name]) => name);
    expect(retried.sort()).toEqual(['RESOURCE_EXHAUSTED', 'UNAVAILABLE']);
  });
});

describe('a refusal of the tier at the client', () => {
  it.each(CASES)('%s answers its status and becomes its client class', (_, err, name, cls) => {
    const answer = toServiceError(err, 'Probe', log);
    expect(answer.code).toBe(status[name]);
    const typed = client.fromServiceError(received(answer), 'Probe');
    expect(typed).toBeInstanceOf(cls);
    expect(typed.code).toBe(status[name]);
    expect(typed.operation).toBe('Probe');
  });

  it('the field travels in a trailer, the details unchanged', () => {
    for (const err of [new InvalidArgumentError('events[2].extra', 'not JSON'), new NotFoundError('node_uuid', 'node 5f0c does not exist')]) {
      const answer = toServiceError(err, 'Probe', log);
      expect(answer.details).toBe(err.message);
      expect(answer.metadata?.get(ERROR_TRAILERS.field)).toEqual([err.field]);
      // Details that do not begin with the field: the client still reads it, from the trailer.
      const typed = client.fromServiceError({ ...received(answer), details: 'no field named here' }, 'Probe');
      expect((typed as client.InvalidArgument | client.NotFound).field).toBe(err.field);
    }
  });

  it('without the trailer, the client names no field, whatever the details say', () => {
    const typed = client.fromServiceError(received({ code: status.INVALID_ARGUMENT, details: 'uuid: not a uuid' }), 'Probe');
    expect((typed as client.InvalidArgument).field).toBe('');
  });

  it('pushback and no effect travel in trailers, read by the same contract', () => {
    const refused = toServiceError(new ResourceExhaustedError('rate limit', 1500, true), 'Probe', log, true);
    expect(pushbackMs(refused.metadata)).toBe(1500);
    expect(noEffect(refused.metadata)).toBe(true);
    const contention = toServiceError(new UnavailableError('deadlock', { rolledBack: true }), 'Probe', log, true);
    expect(contention.details).toBe('database contention: rolled back');
    expect(noEffect(contention.metadata)).toBe(true);
    // An outage never says no effect, whatever the ledger says: MariaDB's words stay in the log.
    const outage = toServiceError(new UnavailableError('ECONNREFUSED'), 'Probe', log, true);
    expect(outage.details).toBe('database unavailable');
    expect(noEffect(outage.metadata)).toBe(false);
  });
});

describe('errorStatus', () => {
  it('sends only the parts its row lists', () => {
    const answer = errorStatus('FAILED_PRECONDITION', 'stale', { field: 'epoch', pushbackMs: 5, noEffect: true });
    expect(answer).toEqual({ code: status.FAILED_PRECONDITION, details: 'stale' });
    expect(errorStatus('INVALID_ARGUMENT', 'uuid: bad', { field: 'uuid', noEffect: true }).metadata?.toJSON()).toEqual({ [ERROR_TRAILERS.field]: ['uuid'] });
  });

  it('drops a field grpc-js could not send rather than fail the answer', () => {
    const answer = errorStatus('NOT_FOUND', 'naïve: not found', { field: 'naïve' });
    expect(answer.metadata).toBeUndefined();
    expect(errorField(answer.metadata)).toBe('');
  });

  it('reads a pushback only when it is a whole number of ms', () => {
    const trailers = (value: string): Metadata => {
      const m = new Metadata();
      m.set(ERROR_TRAILERS.pushbackMs, value);
      return m;
    };
    expect(pushbackMs(trailers('250'))).toBe(250);
    expect(pushbackMs(trailers('-1'))).toBeUndefined();
    expect(pushbackMs(trailers('soon'))).toBeUndefined();
    expect(pushbackMs(undefined)).toBeUndefined();
  });
});

describe("a call's own deadline, passed before or during its statement", () => {
  const mapped = (err: unknown): unknown => {
    try {
      toUnavailable(err);
    } catch (e) {
      return e;
    }
    return undefined;
  };
  it.each([
    ['not started: the deadline passed while it waited (a pool connection, the deferred start)', new DeadlinePassedError("the call's deadline passed before its statement could start")],
    ['stopped at the deadline (KILL QUERY)', Object.assign(new Error('Query execution was interrupted'), { errno: ER_QUERY_INTERRUPTED })],
  ])('%s: DEADLINE_EXCEEDED, not an outage, and never retried', (_, driverError) => {
    const err = mapped(driverError);
    expect(err).toBeInstanceOf(DeadlineExceededError);
    const answer = toServiceError(err, 'PruneEvents', log);
    expect(answer.code).toBe(status.DEADLINE_EXCEEDED);
    expect(answer.details).toMatch(/^deadline exceeded: /);
    expect(answer.metadata).toBeUndefined();
    expect(errorRow(status.DEADLINE_EXCEEDED)?.retry).toBe('never');
    const typed = client.fromServiceError(received(answer), 'PruneEvents');
    expect(typed.code).toBe(status.DEADLINE_EXCEEDED);
  });
});
