// Query strings, as the API and the web pages both read them. The HTTP kit (src/http-kit/) is
// what the API (src/http/) and the web interface (src/web/) share to read requests, register
// routes and send answers; it imports neither side (eslint.config.js keeps it so).

/** Query parameters as fastify parses them: repeated keys become arrays. */
export type QueryValues = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The value of a parameter; when a client repeats it, the last one counts. */
export function queryValue(query: QueryValues, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[value.length - 1] : (value as string | undefined);
}

/** `true` in any letter case is true; anything else, or absence, is false (docs/api.md "Requests"). */
export function queryFlag(query: QueryValues, name: string): boolean {
  return queryValue(query, name)?.trim().toLowerCase() === "true";
}

/** Echoes at most 40 characters of a bad value, so an error never carries a huge input back. */
export function clip(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
