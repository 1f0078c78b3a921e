// Mounts one streaming RPC's REST route (called by the route loop in
// routes/rpc-routes.ts, so literal paths keep winning over templates).
import type Router from "@koa/router";
import type { Transport } from "@connectrpc/connect";
import type { RestRoute } from "../routes/route-table.js";
import { downloadHandler } from "./download-route.js";
import { uploadHandler } from "./upload-route.js";
import { streamingShape } from "./streamed-body.js";
import type { StreamingOptions } from "./streaming-options.js";

export function mountStreamingRoute(router: Router, route: RestRoute, transport: Transport, options: StreamingOptions): void {
  const shape = streamingShape(route.method);
  if (!shape) {
    throw new Error(`${route.method.parent.typeName}/${route.method.name}: a streaming RPC with an HTTP rule must follow stream.proto (field 'body' of type StreamedBodyPart)`);
  }
  const verb = route.verb.toLowerCase() as "get" | "post" | "put" | "delete" | "patch";
  router[verb](route.template.routerPath, shape === "upload" ? uploadHandler(route, transport, options) : downloadHandler(route, transport));
}
