export { fileUploadService } from "./upload-service.js";
export { sweepExpiredSessions } from "./session-sweeper.js";
export type { UploadDeps } from "./upload-deps.js";
