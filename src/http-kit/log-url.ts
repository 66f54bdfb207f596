// The one redaction of request URLs for logs: a log line is no place for a credential. OAuth
// carries its token, signature and verifier in query strings; an invitation link and a calendar
// address are credentials in their path; the approval page names the temporary token.

/** What a secret becomes in a log line. */
export const REDACTED = "[secret]";

/**
 * Query parameters whose values are credentials, by name (decoded, any letter case): OAuth's
 * token, signature, verifier and callback (a client's callback may embed its own secrets), xAuth's
 * password, `access_token` and anything that names a token, secret, password, session or form token.
 */
const SECRET_PARAMETER = /token|secret|passw|signature|verifier|callback|session|csrf|credential|^(?:api_?)?key$/i;

/**
 * Paths whose segments are credentials: `/ical/<secret>/...` and `/join/<member>/<secret>` (also
 * under the mobile `/m` prefix), in any letter case and with repeated slashes, as a 404 logs them too.
 */
const SECRET_PATHS: readonly RegExp[] = [/^((?:\/+m)?\/+ical\/+)[^/]*/i, /^((?:\/+m)?\/+join\/+[^/]*\/+)[^/]*/i];

/** A request URL (path and query, as received) as a log line may hold it: every credential in it redacted. */
export function redactUrl(url: string): string {
  const mark = url.indexOf("?");
  const path = mark < 0 ? url : url.slice(0, mark);
  const redactedPath = SECRET_PATHS.reduce((text, pattern) => text.replace(pattern, `$1${REDACTED}`), path);
  return mark < 0 ? redactedPath : `${redactedPath}?${redactQuery(url.slice(mark + 1))}`;
}

function redactQuery(query: string): string {
  return query
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return SECRET_PARAMETER.test(decodedName(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join("&");
}

/** A parameter name as the server reads it (`oauth%5Ftoken` is `oauth_token`); the raw text when not decodable. */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, " "));
  } catch {
    return name;
  }
}
