import { ValidationError } from "./errors.js";
import type { ContentRef } from "./item-id.js";
import { LIMITS } from "./limits.js";
import { checkMaxChars } from "./text.js";

/** A comment on a topic, task or file; `number` counts up per parent and is never reused. */
export interface Comment {
  readonly id: number;
  readonly parent: ContentRef;
  readonly number: number;
  readonly authorId: number;
  readonly authorName: string;
  readonly body: string;
  readonly replyTo: number | null;
  readonly createdAt: number;
  /** When its author last changed its text; null when never. */
  readonly editedAt: number | null;
}

/**
 * Checks a comment's text. With at least one attached file the text may be empty.
 * @throws ValidationError COMMENT_TEXT_REQUIRED, COMMENT_TEXT_TOO_LONG
 */
export function checkCommentText(text: string | undefined, attachmentCount: number): string {
  const body = text ?? "";
  if (body.trim() === "" && attachmentCount === 0) {
    throw new ValidationError("COMMENT_TEXT_REQUIRED", "The comment text (entry/summary) is missing or empty.");
  }
  checkMaxChars(body, LIMITS.commentMaxChars, "COMMENT_TEXT_TOO_LONG", "The comment text (entry/summary)");
  return body;
}
