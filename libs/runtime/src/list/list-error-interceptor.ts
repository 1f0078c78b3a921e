// The list conventions library throws ListQueryError (a 400 with key and
// details); this turns it into the service error shape once, for every RPC.
import { Code, type Interceptor } from "@connectrpc/connect";
import type { JsonObject } from "@bufbuild/protobuf";
import { serviceError } from "@signage/auth";
import { ListQueryError } from "@signage/query";

export const listQueryErrorInterceptor: Interceptor = (next) => async (req) => {
  try {
    return await next(req);
  } catch (e) {
    if (e instanceof ListQueryError) throw serviceError(Code.InvalidArgument, e.key, e.message, JSON.parse(JSON.stringify(e.details)) as JsonObject);
    throw e;
  }
};
