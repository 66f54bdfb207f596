// The search page's texts for the kinds issue 31 added, in English (spread into en.ts).

/** Events, personal events, chat messages and groups in search results. */
export const SEARCH_EN = {
  "search.kind.G_SCHEDULE": "Event",
  "search.kind.M_SCHEDULE": "Personal event",
  "search.kind.M_CHAT": "Chat message",
  "search.kind.GROUP": "Group",
  "search.myCalendar": "My calendar",
  "search.inRoom": "Chat: {room}",
} as const;
