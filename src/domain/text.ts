import { ValidationError } from "./errors.js";

/** Length in characters (Unicode code points), the unit the specification's limits use. */
export function characterCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character (an emoji, a rare kanji).
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/**
 * Refuses a text of more than `max` characters; `what` names it in the message ("The task title").
 * @throws ValidationError `code`
 */
export function checkMaxChars(text: string, max: number, code: string, what: string): void {
  if (characterCount(text) > max) throw new ValidationError(code, `${what} is longer than ${max} characters.`);
}

/**
 * C0 controls and DEL, and the Unicode bidi controls: ALM (U+061C), LRM and RLM (U+200E, U+200F),
 * the embeddings and overrides (U+202A-202E) and the isolates (U+2066-2069). A bidi control is
 * invisible and reorders what is shown around it (`x\u202Etxt.exe` shows as `xexe.txt`), so a
 * name holding one can show itself as another. Zero-width joiners and non-joiners (U+200C, U+200D)
 * and the zero-width space (U+200B) are not controls here: Persian, the Indic scripts and emoji
 * sequences need the joiners, Thai and Khmer use the space to mark word breaks, and none of them
 * reorders anything. Message and body text keep bidi marks (right-to-left writers need them).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const EVERY_CONTROL_CHARACTER = new RegExp(CONTROL_CHARACTER.source, "g");

/**
 * True when `text` holds a control character: a C0 control, DEL or a bidi control (above). No
 * key, token, nonce, URL, e-mail address or name has one, and a NUL cannot even be compared or
 * stored in PostgreSQL text: callers refuse such values before any lookup.
 */
export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

/**
 * Refuses a name (or a title shown where a name is) holding a control character, bidi controls
 * included; `what` names it in the message ("The room title").
 * @throws ValidationError `code`
 */
export function checkNameCharacters(text: string, code: string, what: string): void {
  if (hasControlCharacter(text))
    throw new ValidationError(code, `${what} must not contain control characters (bidi controls included).`);
}

/** `text` without its control characters (bidi controls included): what a name received from a client keeps. */
export function removeControlCharacters(text: string): string {
  return text.replace(EVERY_CONTROL_CHARACTER, "");
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** `text` with every C0 control character and DEL replaced by U+FFFD: storable anywhere, equal to no real name. */
export function replaceControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, "\uFFFD");
}

// eslint-disable-next-line no-control-regex -- matching what XML 1.0 cannot carry is the point
const NOT_XML_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

/**
 * True when `text` holds a character XML 1.0 cannot carry (a C0 control other than tab and line
 * breaks, U+FFFE, U+FFFF). The API cannot receive such text and its feeds cannot send it; PostgreSQL
 * cannot even store a NUL. Text that comes another way (a web form) is refused when it holds one.
 */
export function hasNonXmlCharacter(text: string): boolean {
  return NOT_XML_CHARACTER.test(text);
}
