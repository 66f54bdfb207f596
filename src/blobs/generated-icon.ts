import { createHash } from "node:crypto";
import type Sharp from "sharp";
import { LIMITS } from "../domain/limits.js";

/** Side of a generated picture, in pixels: the size uploaded pictures are normalised to is close. */
const SIDE = 96;

/** Backgrounds a generated picture takes by id: dark enough for white initials to read (contrast above 4.5). */
const PALETTE = [
  "#1f6f8b",
  "#8b3a62",
  "#2e6b30",
  "#7a4b00",
  "#5b3f8f",
  "#a02c2c",
  "#00695c",
  "#4a5568",
  "#6d4c41",
  "#1a5fb4",
  "#8f3b76",
  "#3d6b00",
] as const;

/** What a generated picture shows: the same input gives the same bytes and the same tag. */
export interface GeneratedIcon {
  readonly bytes: Buffer;
  readonly etag: string;
}

/** Up to two initials of a name: the first letters of its first two words, or its first two characters. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/u).filter(Boolean);
  const letters =
    words.length >= 2
      ? [...words[0]!].slice(0, 1).concat([...words[1]!].slice(0, 1))
      : [...(words[0] ?? "?")].slice(0, 2);
  return letters.join("").toUpperCase();
}

const CACHE_LIMIT = 512;
const cache = new Map<string, Promise<Buffer>>();

/**
 * A square PNG of the initials on a colour taken from `seed` (a user's or group's id). Rendered by
 * sharp from SVG once per (seed, initials) and kept (bounded): a page of avatars asks for the same
 * few again and again.
 */
export async function generatedIcon(kind: "user" | "group", seed: number, name: string): Promise<GeneratedIcon> {
  const initials = initialsOf(name);
  const colour = PALETTE[seed % PALETTE.length] ?? PALETTE[0];
  const etag = `"g-${createHash("sha1").update(`${kind}\n${colour}\n${initials}\n${SIDE}`).digest("hex").slice(0, 20)}"`;
  let bytes = cache.get(etag);
  if (bytes === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    bytes = render(colour, initials, kind === "group");
    cache.set(etag, bytes);
    bytes.catch(() => cache.delete(etag));
  }
  return { bytes: await bytes, etag };
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

async function render(colour: string, initials: string, square: boolean): Promise<Buffer> {
  const sharp: typeof Sharp = (await import("sharp")).default;
  const shape = square
    ? `<rect width="${SIDE}" height="${SIDE}" rx="16" fill="${colour}"/>`
    : `<circle cx="${SIDE / 2}" cy="${SIDE / 2}" r="${SIDE / 2}" fill="${colour}"/>`;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIDE}" height="${SIDE}">${shape}` +
    `<text x="50%" y="50%" dy="0.35em" text-anchor="middle" font-family="sans-serif" font-size="40" fill="#ffffff">` +
    `${escapeXml(initials)}</text></svg>`;
  // Our own SVG of SIDE pixels: far below the limit, which still bounds it like every decode.
  return sharp(Buffer.from(svg), { limitInputPixels: LIMITS.imageMaxPixels }).png({ compressionLevel: 9 }).toBuffer();
}
