// Kysely's migrator reads every schema of the database by name before it migrates; on a server
// shared with other Kairan databases (or test schemas being dropped), that read can fail on
// another schema's vanishing objects. Those failures are tried again; our own never are.
import assert from "node:assert/strict";
import { it } from "node:test";
import pg from "pg";
import { otherSchemaVanished } from "../../src/store/postgres/open.js";

function databaseError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, "error");
  error.code = code;
  return error;
}

it("tries again when another schema, or a table of it, vanished during the look", () => {
  assert.equal(otherSchemaVanished(databaseError("3F000", 'schema "kairan_test_1_aa" does not exist'), "mine"), true);
  assert.equal(
    otherSchemaVanished(
      databaseError("42P01", 'relation "kairan_test_7848_6016a2d8.user_pictures" does not exist'),
      "mine",
    ),
    true,
  );
});

it("never when the missing schema or table is our own, or the error is another", () => {
  assert.equal(otherSchemaVanished(databaseError("3F000", 'schema "mine" does not exist'), "mine"), false);
  assert.equal(otherSchemaVanished(databaseError("42P01", 'relation "mine.users" does not exist'), "mine"), false);
  assert.equal(otherSchemaVanished(databaseError("42P01", 'relation "users" does not exist'), "mine"), false);
  assert.equal(otherSchemaVanished(databaseError("23505", 'schema "other" does not exist'), "mine"), false);
  assert.equal(otherSchemaVanished(new Error('schema "other" does not exist'), "mine"), false);
});
