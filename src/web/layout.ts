// HTML for people: a tagged template that escapes every interpolated value unless it is already
// SafeHtml, and the one page shell. There is no other way to produce markup, so nothing reaches a
// page unescaped by accident.

/** Markup that is already safe to emit: built by `html`, never from a raw string of client data. */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** One interpolated value: SafeHtml as is, lists joined, nothing for null/undefined/false, text escaped. */
function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === undefined || value === null || value === false) return "";
  return escapeHtml(String(value));
}

/** Tagged template: `html\`<p>${text}</p>\`` escapes `text`. */
export function html(strings: TemplateStringsArray, ...values: readonly unknown[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? "");
  });
  return new SafeHtml(out);
}

/** A whole HTML5 document. */
export function page(title: string, body: SafeHtml, lang = "en"): string {
  return html`<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · Kairan</title>
<link rel="stylesheet" href="/static/app.css">
</head>
<body>
<header class="site-header"><span class="brand">Kairan</span></header>
<main>
<div class="narrow-wide">
${body}
</div>
</main>
</body>
</html>
`.value;
}
