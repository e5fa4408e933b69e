// gRPC server reflection (grpcurl, grpcui and the like list and call the tier's methods
// through it), indexed only while a client asks.
//
// @grpc/reflection indexes the whole package when it is constructed: it decodes every file
// descriptor and keeps the result (about 1 MB, a quarter of a second on this project's
// machines). Kept in every replica's heap for the life of the process, for a debugging
// tool, it measurably slowed the hot path (docs/BENCHMARKS.md, bench:rpc: V8 then
// allocates the per-call objects of every GetNode differently). Here each reflection
// stream makes an index of its own when it opens, and drops it with the stream.
import type * as grpc from '@grpc/grpc-js';
import type { PackageDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';

interface Registration {
  readonly definition: grpc.ServiceDefinition;
  readonly implementation: grpc.UntypedServiceImplementation;
}

/** What `service.addToServer` would register (the v1 and v1alpha services, in its order), recorded instead. */
function registrationsOf(service: ReflectionService): Registration[] {
  const recorded: Registration[] = [];
  const recorder: Pick<grpc.Server, 'addService'> = {
    addService: (definition, implementation) => {
      recorded.push({ definition, implementation });
    },
  };
  service.addToServer(recorder as grpc.Server);
  return recorded;
}

/** How many reflection indexes were made (one per reflection stream); none until a client asks. */
export interface ReflectionUse {
  readonly indexed: number;
}

/** Serves reflection of `packageDefinition` on `server`, indexing it once per reflection stream. */
export function addLazyReflection(server: grpc.Server, packageDefinition: PackageDefinition): ReflectionUse {
  const use = { indexed: 0 };
  // The services' shapes from an index of no package: nothing to decode.
  const shapes = registrationsOf(new ReflectionService({}));
  shapes.forEach((shape, index) => {
    const implementation: grpc.UntypedServiceImplementation = {};
    for (const method of Object.keys(shape.implementation)) {
      implementation[method] = (call: grpc.ServerDuplexStream<unknown, unknown>): void => {
        use.indexed += 1;
        const served = registrationsOf(new ReflectionService(packageDefinition))[index];
        const handler = served?.implementation[method] as grpc.handleBidiStreamingCall<unknown, unknown> | undefined;
        if (handler === undefined) throw new Error(`@grpc/reflection no longer registers ${method} as before: server/grpc/reflection.ts needs updating`);
        handler(call);
      };
    }
    server.addService(shape.definition, implementation);
  });
  return use;
}
