// The texts of the header as a phone shows it in English (spread into en.ts).

/** The header folded into a menu below 600 px (issue 31). */
export const PHONES_EN = {
  "nav.menu": "Menu",
  "nav.unconfirmedBadge": "Notifications: {n} unconfirmed",
} as const;
