import { CompiledQuery, type Kysely } from "kysely";
import type { Database } from "../schema.js";

/**
 * A query of every request (authentication, the view version), built and compiled by Kysely once
 * and then run with each call's value: building a query costs about as much as SQLite running
 * it. `build` compiles it around a placeholder; every parameter must be that value.
 * Compiled on first use, so repositories made for each transaction pay nothing unless they run it.
 */
export function compiledOnce<Row>(db: Kysely<Database>, build: (value: string | number) => CompiledQuery<Row>): (value: string | number) => Promise<Row[]> {
  let compiled: CompiledQuery<Row> | undefined;
  return async (value) => {
    if (compiled === undefined) {
      const placeholder = "\u0000placeholder";
      const query = build(placeholder);
      if (!query.parameters.every((parameter) => parameter === placeholder)) throw new Error("compiledOnce: a parameter other than the placeholder");
      compiled = query;
    }
    const { rows } = await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, compiled.parameters.map(() => value)) as CompiledQuery<Row>);
    return rows;
  };
}
