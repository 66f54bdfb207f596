// People's text on pages, as a safe subset of Markdown (markdown-it): paragraphs and line breaks,
// emphasis, strike-through, lists, quotes, code, tables and links. Raw HTML is never read (it is
// shown as text), images are not made (a picture from anywhere would load on every reader's
// page), headings stay text (a comment is not a section of the page), and a Markdown link is made
// only to an http(s) or mailto address, with rel="noopener nofollow". Bare addresses in the text
// become links by rich-text.ts's rules, as before Markdown: only http(s), ended by a Japanese
// sentence or trailing punctuation. The API serves the source text as written.
import MarkdownIt from "markdown-it";
import { SafeHtml, escapeHtml } from "./layout.js";
import { linkedText } from "./rich-text.js";

/** Schemes a link may have: anything else (`javascript:`, `data:`, `file:`) stays text. */
const LINK_SCHEMES = /^(?:https?:\/\/|mailto:)/i;

const md = new MarkdownIt("default", { html: false, linkify: false, breaks: true, typographer: false });
md.disable(["image", "heading", "lheading"]);
md.validateLink = (url) => LINK_SCHEMES.test(url.trim());

const renderToken = md.renderer.renderToken.bind(md.renderer);
md.renderer.rules.link_open = (tokens, idx, options) => {
  const token = tokens[idx]!;
  token.attrSet("rel", "noopener nofollow");
  return renderToken(tokens, idx, options);
};

/** What a render passes to the rules: how plain text becomes HTML (escaping when none is given). */
interface RenderEnv {
  plain?: (segment: string) => string;
  [key: string | symbol]: unknown;
}

// Text outside links: its bare addresses made links, the rest through the render's `plain`
// (escaping, and mention links on item pages).
md.renderer.rules.text = (tokens, idx, _options, env: RenderEnv | undefined) => {
  const content = tokens[idx]!.content;
  return insideLink(tokens, idx) ? escapeHtml(content) : linkedText(content, env?.plain ?? escapeHtml).value;
};

/** Per inline token list, which tokens lie inside a link: worked out once, in one pass. */
const LINKED = new WeakMap<readonly { type: string }[], boolean[]>();

/** Whether the token at `idx` lies inside a link (its text must not get a second link). */
function insideLink(tokens: readonly { type: string }[], idx: number): boolean {
  let inside = LINKED.get(tokens);
  if (inside === undefined) {
    let depth = 0;
    inside = tokens.map((token) => {
      if (token.type === "link_open") depth++;
      else if (token.type === "link_close") depth = Math.max(0, depth - 1);
      return depth > 0;
    });
    LINKED.set(tokens, inside);
  }
  return inside[idx] ?? false;
}

/**
 * `text` as HTML by the subset above. `plain` turns the text between the Markdown's own markup and
 * the addresses into HTML, and must escape it (escapeHtml by default; item pages also link
 * @-mentions there, mention-html.ts).
 */
export function markdownHtml(text: string, plain: (segment: string) => string = escapeHtml): SafeHtml {
  const env: RenderEnv = { plain };
  return new SafeHtml(md.render(text, env));
}
