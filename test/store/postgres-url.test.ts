import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { withSchemaOption } from "../../src/store/postgres/url.js";

describe("PostgreSQL URL: search_path parameter", () => {
  it("becomes pg's `options=-c search_path=...`, keeping other options and parameters", () => {
    const plain = new URL(withSchemaOption("postgres://u@h:5432/db?search_path=kairan&sslmode=disable"));
    assert.equal(plain.searchParams.get("options"), "-c search_path=kairan");
    assert.equal(plain.searchParams.get("sslmode"), "disable");
    assert.equal(plain.searchParams.has("search_path"), false);
    const both = new URL(withSchemaOption("postgres://u@h/db?options=-c%20statement_timeout%3D5000&search_path=a,b"));
    assert.equal(both.searchParams.get("options"), "-c statement_timeout=5000 -c search_path=a,b");
  });

  it("leaves a URL without it untouched", () => {
    const url = "postgres://u:p@h/db?options=-c%20search_path%3Dx";
    assert.equal(withSchemaOption(url), url);
  });
});
