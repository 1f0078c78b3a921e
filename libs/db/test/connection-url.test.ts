import { describe, expect, it } from "vitest";
import { redactUrl, withDatabaseName } from "../src/connection-url.js";

describe("connection urls", () => {
  it("swaps only the database name", () => {
    expect(withDatabaseName("postgres://u:p%40ss@h:5433/postgres?sslmode=disable", "t_1")).toBe(
      "postgres://u:p%40ss@h:5433/t_1?sslmode=disable",
    );
  });

  it("redacts passwords for logs", () => {
    expect(redactUrl("postgres://postgres:secret@127.0.0.1:5433/signage")).toBe("postgres://postgres:***@127.0.0.1:5433/signage");
    expect(redactUrl("postgres://postgres@127.0.0.1/x")).toBe("postgres://postgres@127.0.0.1/x");
  });
});
