import assert from "node:assert/strict";
import { HtmlValidate } from "html-validate";
import { PASSWORD } from "./factories.js";

/** A page as a browser receives it (redirects are not followed, so tests see them). */
export interface WebAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly html: string;
  /** The body as sent (a download's byte order mark included, which `html` drops as a browser does). */
  readonly bytes: Buffer;
  /** The Location of a redirect, relative to the server. */
  readonly location: string | undefined;
}

/**
 * A browser without JavaScript over real HTTP: keeps cookies, sends forms, reads the CSRF
 * token from the last page it was given (as a browser submits the form it was shown).
 */
export class WebClient {
  private readonly cookies = new Map<string, string>();
  private lastHtml = "";

  constructor(
    readonly base: string,
    readonly acceptLanguage = "en",
  ) {}

  /** GET a path. */
  async get(path: string, headers: Record<string, string> = {}): Promise<WebAnswer> {
    return this.send(path, { method: "GET", headers });
  }

  /** GET, following redirects within the site (a browser opening a link). */
  async open(path: string): Promise<WebAnswer> {
    let answer = await this.get(path);
    for (let hops = 0; answer.location !== undefined && hops < 5; hops++) answer = await this.get(answer.location);
    return answer;
  }

  /** POSTs a urlencoded form; `_csrf` is the last page's token unless given. */
  async post(
    path: string,
    fields: Record<string, string> = {},
    options: { csrf?: string | null } = {},
  ): Promise<WebAnswer> {
    const body = new URLSearchParams(fields);
    if (!("_csrf" in fields)) {
      const csrf = options.csrf === undefined ? this.csrf() : options.csrf;
      if (csrf !== null) body.set("_csrf", csrf);
    }
    return this.send(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: body.toString(),
    });
  }

  /** POSTs exactly these urlencoded pairs, in order, duplicates kept, no token added. */
  async postPairs(path: string, pairs: readonly (readonly [string, string])[]): Promise<WebAnswer> {
    return this.send(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(pairs.map(([name, value]): [string, string] => [name, value])).toString(),
    });
  }

  /** POSTs multipart form data (fetch sets the boundary). */
  async postMultipart(path: string, form: FormData): Promise<WebAnswer> {
    return this.send(path, { method: "POST", headers: {}, body: form });
  }

  /** Signs in through the form and asserts it worked. */
  async signIn(email: string, password = PASSWORD): Promise<void> {
    await this.get("/signin");
    const answer = await this.post("/signin", { email, password });
    assert.equal(answer.status, 303, `sign-in failed: ${answer.status} ${answer.html.slice(0, 300)}`);
    await this.get("/");
  }

  /** The form token of the last page. */
  csrf(): string {
    const match = /name="_csrf" value="([^"]*)"/.exec(this.lastHtml);
    assert.ok(match, "the last page has a form with a CSRF token");
    return match[1] ?? "";
  }

  /** A cookie the server set. */
  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** Forgets a cookie (a browser whose cookie expired). */
  dropCookie(name: string): void {
    this.cookies.delete(name);
  }

  private async send(
    path: string,
    init: { method: string; headers: Record<string, string>; body?: string | FormData },
  ): Promise<WebAnswer> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await fetch(`${this.base}${path}`, {
      ...init,
      redirect: "manual",
      headers: {
        "accept-language": this.acceptLanguage,
        accept: "text/html,*/*",
        ...(cookie ? { cookie } : {}),
        ...init.headers,
      },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const [name = "", value = ""] = pair.split("=");
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === "") this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    const html = new TextDecoder().decode(bytes);
    if ((response.headers.get("content-type") ?? "").startsWith("text/html")) this.lastHtml = html;
    const location = response.headers.get("location") ?? undefined;
    return {
      status: response.status,
      headers: response.headers,
      html,
      bytes,
      location: location?.replace(this.base, ""),
    };
  }
}

// A group of checkboxes shares one name (`byDay`, `participants`), as the HTML form submission
// algorithm allows; html-validate's default shares only radio buttons and submit buttons.
const validator = new HtmlValidate({
  extends: ["html-validate:recommended"],
  rules: { "form-dup-name": ["error", { shared: ["radio", "button", "reset", "submit", "checkbox"] }] },
});

/** Asserts a page is valid HTML by html-validate's recommended rules, listing every problem. */
export async function assertValidHtml(html: string, what = "page"): Promise<void> {
  const report = await validator.validateString(html);
  const problems = report.results.flatMap((result) =>
    result.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`),
  );
  assert.equal(
    problems.length,
    0,
    `${what} is not valid HTML:\n${problems.join("\n")}\n--- source ---\n${numbered(html)}`,
  );
}

function numbered(html: string): string {
  return html
    .split("\n")
    .map((line, i) => `${String(i + 1).padStart(4)} ${line}`)
    .join("\n");
}

/** The text content of the first element matching a simple `id` (tests read what a person reads). */
export function textOfId(html: string, id: string): string | undefined {
  const match = new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</`).exec(html);
  return match?.[1]?.replace(/<[^>]+>/g, "").trim();
}
