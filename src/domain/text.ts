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

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * True when `text` holds a C0 control character or DEL. No key, token, nonce, URL or e-mail
 * address has one, and a NUL cannot even be compared or stored in PostgreSQL text: callers
 * refuse such values before any lookup.
 */
export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
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
