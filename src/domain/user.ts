import { ValidationError } from "./errors.js";
import { LIMITS } from "./limits.js";
import { checkMaxChars, hasControlCharacter } from "./text.js";

/** A person who signs in. The password hash never leaves the store's auth queries. */
export interface User {
  readonly id: number;
  readonly name: string;
  readonly email: string;
  readonly familyKana: string;
  readonly givenKana: string;
}

/** The languages a person may choose for their pages. */
export const LANGUAGES = ["ja", "en"] as const;

/** One of {@link LANGUAGES}. */
export type Language = (typeof LANGUAGES)[number];

/** What a person chose for their pages; null leaves it to the browser (language) or the server (time zone). */
export interface Preferences {
  readonly lang: Language | null;
  /** A canonical IANA time zone name. */
  readonly timeZone: string | null;
}

/** A person's name and its reading, as every page and feed shows them. */
export interface UserNames {
  readonly name: string;
  readonly familyKana: string;
  readonly givenKana: string;
}

/**
 * The rules of a name and its reading, wherever they are set (the account page, `kairan user`).
 * @throws ValidationError USER_NAME_REQUIRED, USER_NAME_TOO_LONG, USER_READING_TOO_LONG, USER_NAME_INVALID
 */
export function checkUserNames(names: Partial<UserNames>): void {
  if (names.name !== undefined) {
    if (names.name.trim() === "")
      throw new ValidationError("USER_NAME_REQUIRED", "The user's name is missing or empty.");
    checkMaxChars(names.name, LIMITS.userNameMaxChars, "USER_NAME_TOO_LONG", "The name");
  }
  for (const [reading, what] of [
    [names.familyKana, "The reading of the family name"],
    [names.givenKana, "The reading of the given name"],
  ] as const) {
    if (reading !== undefined) checkMaxChars(reading, LIMITS.userReadingMaxChars, "USER_READING_TOO_LONG", what);
  }
  // A name is shown on one line everywhere, and PostgreSQL cannot store a NUL at all.
  if ([names.name, names.familyKana, names.givenKana].some((text) => text !== undefined && hasControlCharacter(text)))
    throw new ValidationError(
      "USER_NAME_INVALID",
      "A name or reading may not hold control characters (bidi controls included) or line breaks.",
    );
}

/**
 * A password a person chooses: typed twice alike, long enough to resist guessing, short enough
 * that hashing it costs what hashing any password costs.
 * @throws ValidationError PASSWORD_REQUIRED, PASSWORD_TOO_SHORT, PASSWORD_TOO_LONG, PASSWORD_MISMATCH
 */
export function checkNewPassword(password: string, repeated: string): void {
  if (password === "") throw new ValidationError("PASSWORD_REQUIRED", "The password is empty.");
  const length = [...password].length;
  if (length < LIMITS.passwordMinChars)
    throw new ValidationError(
      "PASSWORD_TOO_SHORT",
      `The new password is shorter than ${LIMITS.passwordMinChars} characters.`,
    );
  checkMaxChars(password, LIMITS.passwordMaxChars, "PASSWORD_TOO_LONG", "The new password");
  if (password !== repeated)
    throw new ValidationError("PASSWORD_MISMATCH", "The new password and its repetition differ.");
}

/**
 * The language of a form field: "" for none (the browser's).
 * @throws ValidationError LANGUAGE_INVALID
 */
export function parseLanguage(text: string): Language | null {
  if (text === "") return null;
  const found = LANGUAGES.find((lang) => lang === text);
  if (found === undefined) throw new ValidationError("LANGUAGE_INVALID", "The language must be ja or en.");
  return found;
}

/**
 * A time zone of the IANA database as Intl knows it, in its canonical spelling ("asia/tokyo" is
 * Asia/Tokyo); "" for none (the server's). Offsets ("+09:00") are refused: they know no summer time.
 * @throws ValidationError TIME_ZONE_INVALID
 */
export function parseTimeZone(text: string): string | null {
  if (text === "") return null;
  const invalid = () =>
    new ValidationError("TIME_ZONE_INVALID", `"${text.slice(0, 40)}" is not a time zone such as Asia/Tokyo.`);
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(text)) throw invalid();
  try {
    return new Intl.DateTimeFormat("en", { timeZone: text }).resolvedOptions().timeZone;
  } catch {
    throw invalid();
  }
}

/**
 * The zone a browser reported (the sign-in and sign-up forms' hidden field, filled by app.js):
 * a zone, else undefined. A browser without the script, or a made-up value, changes nothing.
 */
export function browserTimeZone(text: string | undefined): string | undefined {
  if (text === undefined || text === "") return undefined;
  try {
    return parseTimeZone(text) ?? undefined;
  } catch {
    return undefined;
  }
}
