import type { Readable } from "node:stream";
import type Sharp from "sharp";
import { LIMITS } from "../domain/limits.js";

/** What is read from an image's bytes at upload time. */
export interface ImageFacts {
  readonly width: number;
  readonly height: number;
  /** A PNG at most 160 pixels on its longer side; none for an image above LIMITS.imageMaxPixels. */
  readonly thumbnail: Buffer | undefined;
}

/** Longest side of a thumbnail, in pixels. */
export const THUMBNAIL_MAX_PX = 160;

/** What sharp decodes with, wherever it decodes: the one pixel bound. */
const DECODE = { limitInputPixels: LIMITS.imageMaxPixels } as const;

/** Whether an image of this size may be decoded (its header says the size; reading it costs nothing). */
export function withinPixelLimit(width: number, height: number): boolean {
  return width * height <= LIMITS.imageMaxPixels;
}

/**
 * Width, height and a thumbnail of an image, or undefined when the bytes are not a readable
 * image (a corrupt upload is still stored as a plain file). An image above the pixel limit keeps
 * its size but gets no thumbnail: decoding it would cost more than it shows. `open` is called
 * once per pass.
 */
export async function readImage(open: () => Promise<Readable>): Promise<ImageFacts | undefined> {
  const sharp = await loadSharp();
  try {
    // The header only: the size is read without decoding, so no pixel limit applies yet.
    const metadata = await (await open()).pipe(sharp({ limitInputPixels: false })).metadata();
    const { width, height } = metadata;
    if (!width || !height) return undefined;
    if (!withinPixelLimit(width, height)) return { width, height, thumbnail: undefined };
    const thumbnail = await (
      await open()
    )
      .pipe(
        sharp(DECODE)
          .rotate()
          .resize(THUMBNAIL_MAX_PX, THUMBNAIL_MAX_PX, { fit: "inside", withoutEnlargement: true })
          .png(),
      )
      .toBuffer();
    return { width, height, thumbnail };
  } catch {
    return undefined;
  }
}

/** Width and height of an image, read from its header; undefined when the bytes are not a readable image. */
export async function readImageSize(bytes: Uint8Array): Promise<{ width: number; height: number } | undefined> {
  const sharp = await loadSharp();
  try {
    const { width, height } = await sharp(bytes, { limitInputPixels: false }).metadata();
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A square PNG of `side` pixels cut from the middle of an image, turned upright by its EXIF
 * orientation and stripped of its metadata (where a photo was taken stays with its owner); the
 * first frame of an animation. Undefined when the image cannot be decoded after all (or has more
 * than LIMITS.imageMaxPixels). Pictures
 * smaller than `side` are enlarged, so every picture has one size.
 */
export async function squarePng(bytes: Uint8Array, side: number): Promise<Buffer | undefined> {
  const sharp = await loadSharp();
  try {
    return await sharp(bytes, { ...DECODE, failOn: "error" })
      .rotate()
      .resize(side, side, { fit: "cover", position: "centre" })
      .png({ compressionLevel: 9 })
      .toBuffer();
  } catch {
    return undefined;
  }
}

/**
 * sharp (libvips) is loaded on the first image instead of at start: a server whose users never
 * attach an image need not carry it (measured: a bare node grows from 41 to 71 MB resident when
 * loading it; a started server, whose other modules share some of that, 130 -> 124 MB). Outside readImage's catch: a broken install must
 * fail loudly, not store every image as a plain file.
 */
let sharpModule: Promise<typeof Sharp> | undefined;
function loadSharp(): Promise<typeof Sharp> {
  sharpModule ??= import("sharp").then((module) => module.default);
  return sharpModule;
}
