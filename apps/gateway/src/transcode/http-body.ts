// Messages shaped like google.api.HttpBody ({bytes data, string content_type})
// carry raw content: a multipart upload fills them, and a response of that
// shape is sent as the bytes themselves with its content type.
import { ScalarType, type DescMessage } from "@bufbuild/protobuf";

export function isHttpBodyShaped(desc: DescMessage): boolean {
  const data = desc.fields.find((f) => f.name === "data");
  const type = desc.fields.find((f) => f.name === "content_type");
  return data?.fieldKind === "scalar" && data.scalar === ScalarType.BYTES && type?.fieldKind === "scalar" && type.scalar === ScalarType.STRING;
}
