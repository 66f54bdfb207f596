// `POST /preview`: a text as its page will show it (the Markdown subset of markdown.ts), for the
// Preview button app.js adds under the text fields that take Markdown. A signed-in person's form
// (its CSRF token checked like any other); nothing is stored. The answer is an HTML fragment.
import type { FastifyInstance } from "fastify";
import { LIMITS } from "../../domain/limits.js";
import { checkMaxChars } from "../../domain/text.js";
import { markdownHtml } from "../markdown.js";
import { type WebContext, registerPage } from "../page.js";

export function registerPreview(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/preview", {
    async POST(page) {
      const text = page.form.get("text") ?? "";
      checkMaxChars(text, LIMITS.previewMaxChars, "PREVIEW_TOO_LONG", "The text to preview");
      return page.reply
        .header("cache-control", "private, no-store")
        .type("text/html; charset=utf-8")
        .send(markdownHtml(text).value);
    },
  });
}
