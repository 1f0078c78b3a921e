import { fromBinary, toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";

// Binary (de)serialization failing as connect's own serialization fails: Internal, with its wording.

export function serializeBinary<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): Uint8Array {
  try {
    return toBinary(schema, message);
  } catch (err) {
    throw new ConnectError(`serialize binary: ${reason(err)}`, Code.Internal);
  }
}

export function parseBinary<Desc extends DescMessage>(schema: Desc, bytes: Uint8Array): MessageShape<Desc> {
  try {
    return fromBinary(schema, bytes);
  } catch (err) {
    throw new ConnectError(`parse binary: ${reason(err)}`, Code.Internal);
  }
}

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));
