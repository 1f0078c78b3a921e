import { Code } from "@connectrpc/connect";
import type { DescService } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";

/**
 * Every method of `service` answering Unimplemented with the ErrorDetail every error carries
 * (key `error.notImplemented`, as the gateway's 501 body), naming the method: connect's own
 * answer for a missing method has no detail a direct gRPC caller could switch on.
 */
export function unimplementedService(service: DescService): ServiceImpl<DescService> {
  const impl: Record<string, () => never> = {};
  for (const method of service.methods) {
    impl[method.localName] = () => {
      throw serviceError(Code.Unimplemented, "error.notImplemented", `${service.typeName}/${method.name} is not built yet`, { service: service.typeName, method: method.name });
    };
  }
  return impl as unknown as ServiceImpl<DescService>;
}
