/** Every number the API fixes (docs/api.md "Limits"), named once. */
export const LIMITS = {
  topicTitleMaxChars: 200,
  topicBodyMaxChars: 20_000,
  commentMaxChars: 20_000,
  /** A text shown as it will look (`POST /preview`): the longest a body or comment may be. */
  previewMaxChars: 20_000,
  filesPerComment: 10,
  fileMaxBytes: 25 * 1024 * 1024,
  /** The sum of a comment's file sizes. */
  multipartMaxBytes: 50 * 1024 * 1024,
  /**
   * What a multipart request may carry beyond its files: the XML part and part headers. The
   * early Content-Length check allows files plus this envelope.
   */
  multipartEnvelopeBytes: 1024 * 1024 + 64 * 1024,
  confirmPerRequest: 100,
  pageSizeDefault: 20,
  pageSizeMax: 100,
  /** The rows of a group's task list download (`/g/:group/tasks/export`): the most recently changed. */
  taskExportRowsMax: 10_000,
  historyEntries: 5,
  /** A shared file version's change note. */
  fileCommentMaxChars: 1_000,
  termMaxDays: 365,
  /** XML bodies: far above the largest legal entry (20,000 characters of 4 bytes each). */
  xmlBodyMaxBytes: 1024 * 1024,
  /** Edit lease on a topic (docs/api.md "Board"). */
  editLeaseMs: 10 * 60 * 1000,
  /** The request line and headers together (Node's maxHeaderSize): beyond it, 431. */
  headerMaxBytes: 16 * 1024,
  /** The request target (path and query): beyond it, 414. Below headerMaxBytes, so 414 is what a long URL gets. */
  urlMaxBytes: 8 * 1024,
  /** A person's name, and each half of its reading (kana). */
  userNameMaxChars: 100,
  userReadingMaxChars: 100,
  /** A password chosen on the account page (the operator's command line only refuses an empty one). */
  passwordMinChars: 8,
  passwordMaxChars: 1024,
  /** A picture as uploaded, in bytes. */
  pictureMaxBytes: 10 * 1024 * 1024,
  /**
   * The most pixels any image is decoded with (decoding costs memory and CPU by pixels, not by
   * bytes): a larger profile picture is refused, a larger shared file is stored without a thumbnail.
   */
  imageMaxPixels: 50_000_000,
  /** The side of the square a picture is stored as, in pixels. */
  pictureSidePx: 192,
  /** OAuth temporary credentials and verifiers live this long, and are used once. */
  oauthTemporaryCredentialMs: 10 * 60 * 1000,
  /** A group's name: an entry title wherever feeds show it (domain/group-rules.ts). */
  groupNameMaxChars: 200,
  /** A group's description: an entry summary, like a topic's text. */
  groupSummaryMaxChars: 20_000,
  /** Distinct @-mentions a text (topic or task body, comment) resolves; later ones are plain text. */
  mentionsPerText: 20,
  /** The characters between the quotes of `@"Full Name"`. */
  mentionQuotedMaxChars: 100,
  /** Members one mention suggestion answer lists. */
  mentionSuggestions: 8,
  /** What the suggestion list is asked with (the text after `@`). */
  mentionQueryMaxChars: 100,
  /** An event's title and memo (docs/api.md "Events"). */
  eventTitleMaxChars: 200,
  eventMemoMaxChars: 20_000,
  /** The longest event, from its start to its end, in days. */
  eventMaxDays: 366,
  /** The longest listing window of events (term-start to term-end), in days. */
  eventWindowMaxDays: 366,
  /** Occurrences of a repeating event written in one entry. */
  occurrencesPerEntry: 100,
  /** A repetition rule's text (the RRULE value); a rule of every allowed part fits in far less. */
  eventRuleMaxChars: 500,
  /** Participants and facilities named on one event. */
  eventParticipantsMax: 1_000,
  eventFacilitiesMax: 100,
  /** Exceptions (moved or cancelled occurrences) one repeating event keeps. */
  eventExceptionsMax: 1_000,
  /** How far back a calendar feed (/ical/) reaches: events (series: their last end) ending after now minus this. */
  calendarFeedPastDays: 365,
  /** The name of an event menu or facility. */
  eventMenuNameMaxChars: 100,
  /** A folder's name (board, tasks, files): shown as `valueString` and as an entry title. */
  folderNameMaxChars: 100,
  /** Folders of one area of a group: every one fits on one page of a list's filter. */
  foldersPerAreaMax: 100,
} as const;

/** Search (docs/api.md "Search"): the query, the short-query scan and what is indexed of a file. */
export const SEARCH_LIMITS = {
  queryMaxChars: 200,
  /** Terms shorter than this cannot use the trigram index: the query falls back to a bounded scan. */
  indexedTermMinChars: 3,
  /** A scan looks at this many of the newest items of each kind in the caller's groups. */
  scanItemsPerKind: 2000,
  /**
   * Hits counted (and reachable by paging) per kind: its newest matches. Counting every match of
   * a common term in a million comments took seconds; past this `totalCount` is a lower bound.
   */
  countedHitsPerKind: 300,
  /** The first bytes of a plain-text shared file that are indexed. */
  fileTextBytes: 64 * 1024,
  /** Characters of an excerpt on either side of the first hit. */
  excerptContextChars: 40,
} as const;

/** Chat (docs/api.md "Chat"): a message, a THEME room's title and members. */
export const CHAT_LIMITS = {
  messageMaxChars: 3_000,
  roomTitleMaxChars: 200,
  themeRoomMaxMembers: 1_000,
  /** Messages a room entry embeds with `embed-comment=true`, newest first. */
  embeddedMessages: 20,
  /** Messages the browser's conversation page shows (the newest), and sends per update. */
  pageMessages: 100,
} as const;

/**
 * Replies by mail (docs/operations.md "Replies by mail"): how long a reply address works, and the
 * bounds of the inbound SMTP listener. A reply carries at most a comment's files, so one message
 * may hold the largest file encoded in base64 (4/3, plus line breaks) and a little more.
 */
export const MAIL_REPLY_LIMITS = {
  /** A reply address works this long after the message that carried it was written. */
  tokenLifetimeDays: 90,
  /** One message, as sent (the SIZE the listener announces, refused beyond with 552). */
  messageMaxBytes: Math.ceil((LIMITS.fileMaxBytes * 4) / 3 / 76) * 78 + 1024 * 1024,
  /** Messages accepted per person (the user a reply address names) in any hour; the next waits (450). */
  messagesPerUserPerHour: 20,
  /** Connections open at once from one client address (a relaying Postfix counts as one). */
  connectionsPerAddress: 20,
  /** Connections open at once in all. */
  connectionsMax: 100,
  /** Refused recipients one connection may try before it is closed (token guessing). */
  refusedRecipientsPerConnection: 10,
  /** A client silent this long is disconnected. */
  idleTimeoutMs: 60_000,
  /** Messages read and parsed at once; others wait (TCP holds their bytes back), bounding memory. */
  messagesParsedAtOnce: 2,
  /** The text of a reply before its quoted part is cut away (a longer one is refused). */
  textMaxChars: 64 * 1024,
  /** A message's text (or HTML) read at all: a longer one is refused before it is parsed (quote included). */
  bodyMaxChars: 1024 * 1024,
} as const;

/**
 * Bounds of a zip of the original service's export (`kairan import cybozulive FILE.zip`), against
 * zip bombs: what the zip's directory lists, what one export file may unpack to, and what all of
 * them may together. An export of a big group is some tens of MB of CSV; these leave room for many.
 */
export const IMPORT_ZIP_LIMITS = {
  /** Entries of the zip, folders and other files included. */
  maxEntries: 10_000,
  /** One .csv or .txt file, unpacked. */
  maxEntryBytes: 256 * 1024 * 1024,
  /** Every .csv and .txt file together, unpacked. */
  maxTotalBytes: 1024 * 1024 * 1024,
} as const;

/**
 * The bounds a portable archive is read within (`kairan import FILE`), checked against the sizes
 * its zip declares before anything is unpacked, and again on the bytes that come out.
 */
export const ARCHIVE_ZIP_LIMITS = {
  /** Entries of the zip: pages, stored files and the manifest. */
  maxEntries: 1_000_000,
  /** One Atom page or the manifest, unpacked (a page holds ARCHIVE_PAGE rows). */
  maxPageBytes: 64 * 1024 * 1024,
  /** Elements of one Atom page. */
  maxPageElements: 200_000,
  /** One stored file, unpacked: the largest upload a file may have. */
  maxBlobBytes: LIMITS.fileMaxBytes,
  /** Every member together, unpacked. */
  maxTotalBytes: 256 * 1024 * 1024 * 1024,
} as const;

/** Incoming webhooks (docs/api.md "Incoming webhooks"): what one post may carry. */
export const HOOK_LIMITS = {
  /** A hook's name, shown with each post. */
  nameMaxChars: 80,
  /** The request body: far above the longest text (20,000 characters of 4 bytes) with its blocks. */
  bodyMaxBytes: 256 * 1024,
  /** Nesting of arrays and objects in the JSON body. */
  jsonMaxDepth: 16,
  /** Slack's own limit of blocks in a message. */
  blocksMax: 50,
  /** Legacy attachments of one message. */
  attachmentsMax: 20,
  /** Fields of one section block or attachment. */
  fieldsMax: 20,
  /** Hooks of one group or one chat room. */
  hooksPerTarget: 20,
} as const;
