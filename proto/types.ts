// Types derived from the generated service definition, shared by server/ and client/.
/* eslint-disable @typescript-eslint/no-explicit-any -- `infer` needs `any` in the other positions */
import type { MethodDefinition } from '@grpc/proto-loader';
import type { DatabaseDefinition } from './gen/sfdb/v1/Database.js';

/** The keys of T without its index signature. */
export type KnownKeys<T> = keyof {
  [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K];
};

/** Every RPC of the Database service, PascalCase. */
export type MethodName = KnownKeys<DatabaseDefinition> & string;

/** The generated definition of one RPC. */
export type MethodDef<M extends MethodName> = DatabaseDefinition[M];

/** What a caller may send (permissive: longs as number | string, enums as name or number). */
export type RequestIn<M extends MethodName> =
  MethodDef<M> extends MethodDefinition<infer I, any, any, any> ? I : never;
/** What a server receives (every field present: defaults filled in). */
export type RequestOut<M extends MethodName> =
  MethodDef<M> extends MethodDefinition<any, any, infer O, any> ? O : never;
/** What a server may answer. */
export type ResponseIn<M extends MethodName> =
  MethodDef<M> extends MethodDefinition<any, infer I, any, any> ? I : never;
/** What a client receives. */
export type ResponseOut<M extends MethodName> =
  MethodDef<M> extends MethodDefinition<any, any, any, infer O> ? O : never;

export type * from './gen/database.js';
