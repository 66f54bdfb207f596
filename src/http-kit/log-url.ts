// The one redaction of request URLs for logs: a log line is no place for a credential. OAuth
// carries its token, signature and verifier in query strings; an invitation link, a calendar
// address and the account links (password reset, address change, setup) are credentials in their
// path, and the sign-in page carries such a path in `next`; the approval page names the temporary token.

/** What a secret becomes in a log line. */
export const REDACTED = "[secret]";

/**
 * Query parameters whose values are credentials, by name (decoded, any letter case): OAuth's
 * token, signature, verifier and callback (a client's callback may embed its own secrets), xAuth's
 * password, `access_token` and anything that names a token, secret, password, session or form token;
 * and OpenID Connect's authorization `code` (single sign-on's callback).
 */
const SECRET_PARAMETER =
  /token|secret|passw|signature|verifier|callback|session|csrf|credential|^(?:api_?)?key$|^code$/i;

/**
 * Paths whose segments are credentials: `/ical/<secret>/...`, `/join/<member>/<secret>`, the
 * account links `/password/reset/<secret>`, `/account/email/confirm/<secret>`, `/setup/<secret>`,
 * and `/unsubscribe/<token>` (also under the mobile `/m` prefix), in any letter case and with
 * repeated slashes, as a 404 logs them too.
 */
const SECRET_PATHS: readonly RegExp[] = [
  /^((?:\/+m)?\/+ical\/+)[^/]*/i,
  /^((?:\/+m)?\/+join\/+[^/]*\/+)[^/]*/i,
  /^((?:\/+m)?\/+password\/+reset\/+)[^/]*/i,
  /^((?:\/+m)?\/+account\/+email\/+confirm\/+)[^/]*/i,
  /^((?:\/+m)?\/+setup\/+)[^/]*/i,
  // A notification's one-click unsubscribe link (services/mail-notify/unsubscribe.ts).
  /^((?:\/+m)?\/+unsubscribe\/+)[^/]*/i,
];

/** A request URL (path and query, as received) as a log line may hold it: every credential in it redacted. */
export function redactUrl(url: string): string {
  const mark = url.indexOf("?");
  const path = mark < 0 ? url : url.slice(0, mark);
  return mark < 0 ? redactPath(path) : `${redactPath(path)}?${redactQuery(url.slice(mark + 1))}`;
}

function redactPath(path: string): string {
  return SECRET_PATHS.reduce((text, pattern) => text.replace(pattern, `$1${REDACTED}`), path);
}

function redactQuery(query: string): string {
  return query
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const name = equals < 0 ? pair : pair.slice(0, equals);
      if (SECRET_PARAMETER.test(decodedName(name))) return `${name}=${REDACTED}`;
      // A path of this site carried as a value (sign-in's `next=/join/1:5/SECRET`): its secret too.
      if (equals < 0) return pair;
      const value = decodedName(pair.slice(equals + 1));
      const redacted = redactPath(value);
      return redacted === value ? pair : `${name}=${encodeURIComponent(redacted)}`;
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
