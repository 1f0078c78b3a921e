import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import {
  HealthCheckRequestSchema,
  HealthCheckResponseSchema,
  type HealthCheckRequest,
  type HealthCheckResponse,
} from "@signage/contracts/grpc/health/v1/health_pb";

/**
 * grpc.health.v1.Health for @grpc/grpc-js, defined by hand with protobuf-es
 * serializers: the same wire contract a Kubernetes gRPC probe uses, from a
 * completely independent gRPC implementation.
 */
const healthDefinition = {
  check: {
    path: "/grpc.health.v1.Health/Check",
    requestStream: false,
    responseStream: false,
    requestSerialize: (m: HealthCheckRequest) => Buffer.from(toBinary(HealthCheckRequestSchema, m)),
    requestDeserialize: (b: Buffer) => fromBinary(HealthCheckRequestSchema, b),
    responseSerialize: (m: HealthCheckResponse) => Buffer.from(toBinary(HealthCheckResponseSchema, m)),
    responseDeserialize: (b: Buffer) => fromBinary(HealthCheckResponseSchema, b),
  },
} satisfies grpc.ServiceDefinition;

const HealthClient = grpc.makeClientConstructor(healthDefinition, "grpc.health.v1.Health");

export interface GrpcJsHealth {
  check(service: string): Promise<HealthCheckResponse>;
  close(): void;
}

export function grpcJsHealthClient(address: string): GrpcJsHealth {
  const client = new HealthClient(address, grpc.credentials.createInsecure());
  // makeClientConstructor builds methods at run time; this is their shape.
  type CheckFn = (req: HealthCheckRequest, cb: (err: grpc.ServiceError | null, res?: HealthCheckResponse) => void) => void;
  const check = (client as unknown as { check: CheckFn }).check.bind(client);
  return {
    check: (service) =>
      new Promise((resolve, reject) => {
        check(create(HealthCheckRequestSchema, { service }), (err, res) =>
          err ? reject(err) : resolve(res!),
        );
      }),
    close: () => client.close(),
  };
}
