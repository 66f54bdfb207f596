/** Offset paging as the interface defines it (`start-index`, `max-results`): which rows a list read returns. */
export interface PageWindow {
  readonly offset: number;
  readonly limit: number;
}
