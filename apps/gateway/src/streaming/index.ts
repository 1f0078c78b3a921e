export { mountStreamingRoute } from "./mount-streaming-route.js";
export { DEFAULT_STREAMING_OPTIONS, type StreamingOptions } from "./streaming-options.js";
export { streamingShape, streamedBodyField } from "./streamed-body.js";
export { streamingOpenApi } from "./openapi.js";
