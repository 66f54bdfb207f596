// The database URL as pg takes it: shared by the pool (open.ts) and the listening connection (listen.ts).

/**
 * Turns a `search_path=a,b` query parameter into the `options=-c search_path=a,b` that pg (like
 * libpq) sends at connection start, so an operator can name the schema without escaping `-c`.
 */
export function withSchemaOption(url: string): string {
  const parsed = new URL(url);
  const path = parsed.searchParams.get("search_path");
  if (path === null) return url;
  parsed.searchParams.delete("search_path");
  const options = [parsed.searchParams.get("options"), `-c search_path=${path}`].filter(Boolean).join(" ");
  parsed.searchParams.set("options", options);
  return parsed.toString();
}
