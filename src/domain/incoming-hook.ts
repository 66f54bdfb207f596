// Incoming webhooks (docs/api.md "Incoming webhooks"): the hook's name, and the payload a tool
// sends turned into a title and a text. Slack's incoming-webhook payload (`text`, `blocks`,
// legacy `attachments`) is read so that tools posting to Slack work unchanged; `{title, text}` is
// the plain form. Pure: the JSON is already parsed (within its depth bound).
import { ValidationError } from "./errors.js";
import { HOOK_LIMITS, LIMITS } from "./limits.js";
import { characterCount, checkMaxChars, hasControlCharacter } from "./text.js";

/** Where a hook posts. */
export type HookTarget =
  | { readonly kind: "topic"; readonly groupId: number }
  | { readonly kind: "comment"; readonly groupId: number; readonly topicId: number }
  | { readonly kind: "chat"; readonly roomId: number };

/** A hook as stored (its secret only as a hash, never here). */
export interface IncomingHook {
  readonly id: number;
  readonly name: string;
  readonly creatorId: number;
  readonly creatorName: string;
  readonly target: HookTarget;
  readonly createdAt: number;
}

/** What a post says: a title (for a new topic) and the text. */
export interface HookPost {
  readonly title: string | undefined;
  readonly text: string;
}

/** Characters that would change how the name's Markdown label shows, besides controls. */
const NAME_MARKUP = /[*_`[\]<>\\]/u;

/**
 * A hook's name, trimmed: 1 to 80 characters, no control characters (a name never splits a header
 * or a line) and none of the Markdown characters of the label it is shown in.
 * @throws ValidationError HOOK_NAME_REQUIRED, HOOK_NAME_TOO_LONG, HOOK_NAME_INVALID
 */
export function checkHookName(name: string | undefined): string {
  const trimmed = (name ?? "").trim();
  if (trimmed === "") throw new ValidationError("HOOK_NAME_REQUIRED", "The hook's name is missing.");
  checkMaxChars(trimmed, HOOK_LIMITS.nameMaxChars, "HOOK_NAME_TOO_LONG", "The hook's name");
  if (hasControlCharacter(trimmed) || NAME_MARKUP.test(trimmed)) {
    throw new ValidationError(
      "HOOK_NAME_INVALID",
      "The hook's name may not hold control characters or any of * _ ` [ ] < > \\.",
    );
  }
  return trimmed;
}

/** The post's text as stored: the hook's name in bold on the first line, then what was sent. */
export function labelledText(name: string, text: string): string {
  return `**${name}**\n${text}`;
}

/** A new topic's title: the one sent, else the text's first line (cut to the title's limit). */
export function topicTitleOf(post: HookPost): string | undefined {
  if (post.title !== undefined) return post.title;
  const line = post.text
    .split("\n")
    .map((candidate) =>
      candidate
        .replace(/^[\s#>]+/, "")
        .replace(/[*~`]/g, "")
        .trim(),
    )
    .find((candidate) => candidate !== "");
  if (line === undefined) return undefined;
  const max = LIMITS.topicTitleMaxChars;
  return characterCount(line) <= max ? line : `${[...line].slice(0, max - 1).join("")}…`;
}

/**
 * Reads a parsed payload: `title` (optional), `text`, `blocks`, `attachments`; anything else
 * (`username`, `icon_emoji`, `channel`, ...) is ignored. Blocks are shown instead of `text`, as
 * Slack does (there `text` is the notification's fallback); attachments follow.
 * @throws ValidationError HOOK_PAYLOAD_INVALID (not an object, a field of the wrong type or too
 * many items), HOOK_TEXT_REQUIRED (nothing to show)
 */
export function readHookPayload(payload: unknown): HookPost {
  const body = asObject(payload, "The body");
  const title = optionalString(body.title, "title");
  const text = optionalString(body.text, "text");
  const blocks = optionalArray(body.blocks, "blocks", HOOK_LIMITS.blocksMax);
  const attachments = optionalArray(body.attachments, "attachments", HOOK_LIMITS.attachmentsMax);
  const parts: string[] = [];
  const fromBlocks = blocks === undefined ? "" : renderBlocks(blocks, "blocks");
  if (fromBlocks !== "") parts.push(fromBlocks);
  else if (text !== undefined && text.trim() !== "") parts.push(slackText(text));
  attachments?.forEach((attachment, index) => {
    const shown = renderAttachment(asObject(attachment, `attachments[${index}]`), `attachments[${index}]`);
    if (shown !== "") parts.push(shown);
  });
  const joined = parts.join("\n\n");
  if (joined.trim() === "" && (title === undefined || title.trim() === "")) {
    throw new ValidationError(
      "HOOK_TEXT_REQUIRED",
      "The payload has nothing to post: give text (or blocks, or attachments).",
    );
  }
  return { title, text: joined };
}

/**
 * Slack's mrkdwn as Markdown: `<url|label>` a link, `<url>` the address, `<!here>` `@here`,
 * `<@U123>` as written; `&amp;`, `&lt;`, `&gt;` unescaped. `*bold*` stays (it shows emphasised).
 */
export function slackText(text: string): string {
  return text
    .replace(/<([^<>|]+)\|([^<>]*)>/g, (_whole, url: string, label: string) =>
      isWebAddress(url) ? `[${label}](${url})` : label,
    )
    .replace(/<!(here|channel|everyone)(?:\|[^<>]*)?>/g, "@$1")
    .replace(/<((?:https?|mailto):[^<>]*)>/g, "$1")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

function isWebAddress(url: string): boolean {
  return /^(https?:\/\/|mailto:)/i.test(url);
}

function renderBlocks(blocks: readonly unknown[], where: string): string {
  return blocks
    .map((block, index) => renderBlock(asObject(block, `${where}[${index}]`), `${where}[${index}]`))
    .filter((shown) => shown !== "")
    .join("\n\n");
}

/** One block: section (text and fields), header, context, divider, image, rich_text; others show nothing. */
function renderBlock(block: Record<string, unknown>, where: string): string {
  switch (block.type) {
    case "section": {
      const text = textObject(block.text, `${where}.text`);
      const fields = optionalArray(block.fields, `${where}.fields`, HOOK_LIMITS.fieldsMax) ?? [];
      const shownFields = fields.map((field, index) => textObject(field, `${where}.fields[${index}]`));
      return [text, ...shownFields].filter((part) => part !== "").join("\n");
    }
    case "header": {
      const text = textObject(block.text, `${where}.text`);
      return text === "" ? "" : `**${text}**`;
    }
    case "context": {
      const elements = optionalArray(block.elements, `${where}.elements`, HOOK_LIMITS.fieldsMax) ?? [];
      return elements
        .map((element, index) => contextElement(element, `${where}.elements[${index}]`))
        .filter((part) => part !== "")
        .join(" ");
    }
    case "divider":
      return "---";
    case "image": {
      const url = optionalString(block.image_url, `${where}.image_url`);
      const alt = optionalString(block.alt_text, `${where}.alt_text`) ?? "image";
      return url !== undefined && isWebAddress(url) ? `[${alt}](${url})` : alt;
    }
    case "rich_text":
      return richText(block.elements, where, 0);
    default:
      return "";
  }
}

function contextElement(element: unknown, where: string): string {
  const object = asObject(element, where);
  if (object.type === "image") return optionalString(object.alt_text, `${where}.alt_text`) ?? "";
  return textObject(object, where);
}

/** The text of rich_text's nested elements (sections, lists, quotes, preformatted), kept shallow. */
function richText(elements: unknown, where: string, depth: number): string {
  if (depth > 4 || !Array.isArray(elements)) return "";
  return elements
    .map((element) => {
      if (typeof element !== "object" || element === null) return "";
      const object = element as Record<string, unknown>;
      if (typeof object.text === "string") return object.text;
      if (typeof object.url === "string") return object.url;
      const inner = richText(object.elements, where, depth + 1);
      return object.type === "rich_text_list" || object.type === "rich_text_section" ? `${inner}\n` : inner;
    })
    .join("")
    .trim();
}

/** A Slack text object `{type: "mrkdwn" | "plain_text", text}`; absent: "". */
function textObject(value: unknown, where: string): string {
  if (value === undefined || value === null) return "";
  const object = asObject(value, where);
  const text = optionalString(object.text, `${where}.text`) ?? "";
  return object.type === "plain_text" ? text : slackText(text);
}

/** A legacy attachment: pretext, title (linked), text, fields, footer; its fallback when it shows nothing else. */
function renderAttachment(attachment: Record<string, unknown>, where: string): string {
  const string = (name: string) => optionalString(attachment[name], `${where}.${name}`);
  const title = string("title");
  const link = string("title_link");
  const fields = (optionalArray(attachment.fields, `${where}.fields`, HOOK_LIMITS.fieldsMax) ?? []).map(
    (field, index) => {
      const object = asObject(field, `${where}.fields[${index}]`);
      const name = optionalString(object.title, `${where}.fields[${index}].title`) ?? "";
      const value = optionalString(object.value, `${where}.fields[${index}].value`) ?? "";
      return name === "" ? slackText(value) : `**${name}**: ${slackText(value)}`;
    },
  );
  const blocks = optionalArray(attachment.blocks, `${where}.blocks`, HOOK_LIMITS.blocksMax);
  const parts = [
    string("pretext"),
    title === undefined ? undefined : link !== undefined && isWebAddress(link) ? `[${title}](${link})` : `**${title}**`,
    string("text"),
    ...fields,
    blocks === undefined ? undefined : renderBlocks(blocks, `${where}.blocks`),
    string("footer"),
  ]
    .filter((part): part is string => part !== undefined && part.trim() !== "")
    .map((part) => slackText(part));
  if (parts.length > 0) return parts.join("\n");
  return slackText(string("fallback") ?? "");
}

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ValidationError("HOOK_PAYLOAD_INVALID", `${what} must be a JSON object.`);
  }
  return value as Record<string, unknown>;
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new ValidationError("HOOK_PAYLOAD_INVALID", `${field} must be a string.`);
  return value;
}

function optionalArray(value: unknown, field: string, max: number): readonly unknown[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new ValidationError("HOOK_PAYLOAD_INVALID", `${field} must be an array.`);
  if (value.length > max) {
    throw new ValidationError("HOOK_PAYLOAD_INVALID", `${field} holds ${value.length} items; at most ${max} are read.`);
  }
  return value;
}

/**
 * The deepest nesting of arrays and objects in a JSON text, counted before it is parsed (a
 * "JSON bomb" of a million brackets is refused without building it).
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
