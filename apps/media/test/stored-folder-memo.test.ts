import { describe, expect, it } from "vitest";
import { createStoredFolderMemo } from "../src/folders/stored-folder-memo.js";

describe("stored folder memo", () => {
  it("knows only the ids it was told, and forgets the oldest beyond its size", () => {
    const memo = createStoredFolderMemo(2);
    expect(memo.isStored("a")).toBe(false);
    memo.rememberStored("a");
    memo.rememberStored("b");
    memo.rememberStored("a"); // already known: no reordering, no growth
    memo.rememberStored("c");
    expect(["a", "b", "c"].map((id) => memo.isStored(id))).toEqual([false, true, true]);
  });
});
