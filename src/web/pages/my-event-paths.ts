// The addresses of a personal event's pages (`/schedule/1:n`, the page feeds link to).
import { formatPair } from "../../domain/item-id.js";

/** `/schedule/1:n`. */
export function personalEventPath(eventId: number): string {
  return `/schedule/${formatPair(eventId)}`;
}
