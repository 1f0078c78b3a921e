// Recognises the streamed-body convention of signage/common/v1/stream.proto:
// a streaming RPC whose request (upload) or response (download) message has a
// field `body` of type signage.common.v1.StreamedBodyPart.
import type { DescField, DescMessage, DescMethod } from "@bufbuild/protobuf";

const STREAMED_BODY_PART = "signage.common.v1.StreamedBodyPart";

export function streamedBodyField(desc: DescMessage): DescField | undefined {
  const field = desc.fields.find((f) => f.name === "body");
  return field?.fieldKind === "message" && field.message.typeName === STREAMED_BODY_PART ? field : undefined;
}

export type StreamingShape = "upload" | "download";

/** The convention a streaming method follows, or undefined (not servable over REST). */
export function streamingShape(method: DescMethod): StreamingShape | undefined {
  if (method.methodKind === "client_streaming" && streamedBodyField(method.input)) return "upload";
  if (method.methodKind === "server_streaming" && streamedBodyField(method.output)) return "download";
  return undefined;
}
