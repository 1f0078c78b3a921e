// "Format: must not start with `-` or whitespace; letters, digits and `- _ # .` allowed; at most
// 2048 characters." Plus the bytes an index entry holds, for letters beyond ASCII.
import { describe, expect, it } from "vitest";
import { TAG_MAX_BYTES, TAG_MAX_LENGTH, tagFormatProblem } from "../src/index.js";

describe("tagFormatProblem", () => {
  it("takes letters of any script, digits and - _ # . up to 2048 characters", () => {
    expect(tagFormatProblem("a".repeat(TAG_MAX_LENGTH))).toBeUndefined();
    expect(tagFormatProblem("Früh-jahr_#1.0 Ångström")).toBeUndefined();
    expect(tagFormatProblem("促销")).toBeUndefined();
  });

  it("refuses more than 2048 characters, a leading '-' or whitespace, and other characters", () => {
    expect(tagFormatProblem("a".repeat(TAG_MAX_LENGTH + 1))).toMatch(/at most 2048 characters/);
    expect(tagFormatProblem("-promo")).toMatch(/must not start/);
    expect(tagFormatProblem(" promo")).toMatch(/must not start/);
    expect(tagFormatProblem("pro/mo")).toMatch(/only letters/);
  });

  // 2048 three-byte letters are 6144 bytes: past what an index entry holds (about 2700), every
  // write carrying the tag would fail in PostgreSQL. Refused up front, naming the bytes.
  it("refuses a tag within 2048 characters but past the bytes its index holds", () => {
    expect(tagFormatProblem("促".repeat(TAG_MAX_BYTES / 3))).toBeUndefined();
    expect(tagFormatProblem("促".repeat(TAG_MAX_BYTES / 3 + 1))).toMatch(/at most 2400 bytes in UTF-8.*2403 bytes in 801 characters/);
    expect(tagFormatProblem("促".repeat(TAG_MAX_LENGTH))).toMatch(/bytes in UTF-8/);
  });
});
