/**
 * The configured database cannot be used (PostgreSQL unreachable, a missing database or schema, a
 * refused password; a SQLite path that cannot hold a database): one sentence naming the cause and
 * the fix, which the command line prints as it is.
 */
export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
}

/** The parts of pg's errors (connection errors and server errors with a SQLSTATE code) read here. */
interface PgFailure {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly address?: unknown;
  readonly port?: unknown;
}

/**
 * One sentence for an error met while connecting to PostgreSQL at `target` (host:port/db, no
 * password), or undefined for errors that are not about reaching the database.
 */
export function describePostgresFailure(error: unknown, target: string): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, message } = error as PgFailure;
  const said = typeof message === "string" ? message : "";
  switch (code) {
    case "ECONNREFUSED":
      return `PostgreSQL at ${target} refuses connections: start it, or fix the host and port in --database`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `PostgreSQL at ${target}: no such host; fix the host in --database`;
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `PostgreSQL at ${target} does not answer (${code}); check the host and port in --database and the network`;
    case "3D000": // invalid_catalog_name
      return `PostgreSQL at ${target}: ${said}; create it (createdb) or fix the database name in --database`;
    case "3F000": // invalid_schema_name
      return `PostgreSQL at ${target}: ${said}; create the schema or fix search_path in --database`;
    case "28P01": // invalid_password
      return `PostgreSQL at ${target} refused the password (${said}); fix the user and password in --database`;
    case "28000": // invalid_authorization_specification
      return `PostgreSQL at ${target} refused the connection (${said}); fix the user in --database or allow it in pg_hba.conf`;
    case "42501": // insufficient_privilege
      return `PostgreSQL at ${target}: ${said}; grant the user the rights to create tables in its schema`;
    case "57P03": // cannot_connect_now
      return `PostgreSQL at ${target} is starting up or shutting down; try again in a moment`;
    default:
      // The client's own connection errors (an SSL refusal, a broken URL) carry no code.
      if (/connect|connection|SSL/i.test(said) && code === undefined)
        return `PostgreSQL at ${target}: ${said}; check --database`;
      return undefined;
  }
}

/** One sentence for an error met while opening the SQLite file, or undefined for other errors. */
export function describeSqliteFailure(error: unknown, file: string): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, message } = error as PgFailure;
  const said = typeof message === "string" ? message : "";
  switch (code) {
    case "EEXIST":
    case "ENOTDIR":
      return `cannot create the data directory for ${file}: a file is in the way; choose a directory for --data`;
    case "EACCES":
    case "EPERM":
      return `cannot write ${file}: permission denied; let this user write the --data directory or choose another`;
    case "EROFS":
    case "SQLITE_READONLY":
      return `cannot write ${file}: read-only; choose a writable --data directory`;
    case "SQLITE_CANTOPEN":
      return `cannot open ${file} (${said}); check that the --data directory exists and is writable`;
    case "SQLITE_NOTADB":
    case "SQLITE_CORRUPT":
      return `${file} is not a Kairan database (${said}); choose another --data directory`;
    case "SQLITE_FULL":
    case "ENOSPC":
      return `cannot write ${file}: the disk is full`;
    default:
      return undefined;
  }
}

/** `host:port/database` of a PostgreSQL URL, without user or password, for messages. */
export function postgresTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || "localhost"}:${parsed.port || "5432"}${parsed.pathname}`;
  } catch {
    return "(unparsable URL)";
  }
}
