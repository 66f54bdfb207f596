// The one prefix table of the wire format (docs/api.md "Answers"). Clients that are not namespace-aware
// match literal names such as `cbl:group`, so these prefixes are part of the contract, not a style.

/** Namespace URIs by the prefix every response uses for them (`atom` is the default namespace). */
export const NS = {
  atom: "http://www.w3.org/2005/Atom",
  cbl: "http://schemas.cybozulive.com/common/2010",
  cblBrd: "http://schemas.cybozulive.com/board/2010",
  cblCmnt: "http://schemas.cybozulive.com/comment/2010",
  cblGood: "http://schemas.cybozulive.com/good/2010",
  cblStar: "http://schemas.cybozulive.com/star/2010",
  cblTsk: "http://schemas.cybozulive.com/task/2010",
  cblCbnt: "http://schemas.cybozulive.com/cabinet/2010",
  cblGrp: "http://schemas.cybozulive.com/group/2010",
  cblPrfl: "http://schemas.cybozulive.com/profile/2010",
  cblNtf: "http://schemas.cybozulive.com/notification/2010",
  cblSch: "http://schemas.cybozulive.com/schedule/2010",
  cblChat: "http://schemas.cybozulive.com/chat/2010",
  dc: "http://purl.org/dc/elements/1.1/",
  // Delta sync's tombstones (RFC 6721, docs/api.md "Delta sync").
  at: "http://purl.org/atompub/tombstones/1.0",
} as const;

/** Namespace declarations for the root `<feed>`: Atom as the default namespace, then every prefix in table order. */
export const FEED_NAMESPACES: string = Object.entries(NS)
  .map(([prefix, uri]) => (prefix === "atom" ? ` xmlns="${uri}"` : ` xmlns:${prefix}="${uri}"`))
  .join("");
