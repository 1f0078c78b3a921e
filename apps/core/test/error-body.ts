import { expect } from "vitest";

/** The documented error body {"status","error","message","key","details"} with this status and key. */
export const errorBody = (status: number, key: string) => ({ status, error: expect.any(String), message: expect.any(String), key, details: expect.any(Object) });
