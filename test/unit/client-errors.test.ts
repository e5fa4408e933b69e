// Every status the tier can answer has its own typed client error.
import { Metadata, status } from '@grpc/grpc-js';
import type { ServiceError } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import type {
  DatabaseError} from '../../client/errors.js';
import {
  Conflict,
  DatabaseUnavailable,
  Fenced,
  Internal,
  InvalidArgument,
  NotFound,
  OutOfRange,
  PermissionDenied,
  Unimplemented,
  fromServiceError,
} from '../../client/errors.js';

function serviceError(code: status, details: string): ServiceError {
  return Object.assign(new Error(`${code} ${details}`), { code, details, metadata: new Metadata() });
}

const EXPECTED: [keyof typeof status, new (...args: never[]) => DatabaseError][] = [
  ['UNAVAILABLE', DatabaseUnavailable],
  ['DEADLINE_EXCEEDED', DatabaseUnavailable],
  ['RESOURCE_EXHAUSTED', DatabaseUnavailable],
  ['CANCELLED', DatabaseUnavailable],
  ['FAILED_PRECONDITION', Fenced],
  ['INVALID_ARGUMENT', InvalidArgument],
  ['ALREADY_EXISTS', Conflict],
  ['ABORTED', Conflict],
  ['NOT_FOUND', NotFound],
  ['PERMISSION_DENIED', PermissionDenied],
  ['UNAUTHENTICATED', PermissionDenied],
  ['OUT_OF_RANGE', OutOfRange],
  ['UNIMPLEMENTED', Unimplemented],
  ['INTERNAL', Internal],
  ['UNKNOWN', Internal],
  ['DATA_LOSS', Internal],
];

describe('fromServiceError', () => {
  it.each(EXPECTED)('%s becomes its own class, keeping the code, the operation and the cause', (name, cls) => {
    const err = serviceError(status[name], 'node.uuid: details');
    const typed = fromServiceError(err, 'GetNode');
    expect(typed).toBeInstanceOf(cls);
    expect(typed.name).toBe(cls.name);
    expect(typed.code).toBe(status[name]);
    expect(typed.operation).toBe('GetNode');
    expect(typed.cause).toBe(err);
  });

  it('covers every non-OK status grpc-js defines', () => {
    const named = new Set(EXPECTED.map(([name]) => name));
    const all = Object.keys(status).filter((k) => Number.isNaN(Number(k)) && k !== 'OK');
    expect(all.filter((k) => !named.has(k as keyof typeof status))).toEqual([]);
  });
});
