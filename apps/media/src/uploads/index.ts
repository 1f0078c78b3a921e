export { fileUploadService } from "./upload-service.js";
export { scheduleSessionSweep, sweepExpiredSessions } from "./session-sweeper.js";
export type { UploadDeps } from "./upload-deps.js";
