import { existsSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { SEED } from "./support/seed-quotes.js";

const SEED_FILE = "/work/shared/seeds/001_2e6525d03717140e.txt";

describe.skipIf(!existsSync(SEED_FILE))("the quoted sentences are the document's own", () => {
  const document = existsSync(SEED_FILE) ? readFileSync(SEED_FILE, "utf8") : "";
  test.each(Object.entries(SEED))("%s", (_, sentence) => {
    expect(document).toContain(sentence);
  });
});
