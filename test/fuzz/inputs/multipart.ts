// multipart/form-data bodies: the comment upload's parts (default, file0..file9) and wrong ones,
// with boundaries that do not match, parts cut off, headers missing or malformed.
import fc from "fast-check";
import { absurdValue } from "./values.js";

/** A body and the Content-Type header that announces it. */
export interface MultipartBody {
  readonly contentType: string;
  readonly body: Buffer;
}

interface RawPart {
  readonly name: string;
  readonly fileName: string | undefined;
  readonly type: string | undefined;
  readonly content: Buffer;
}

const PART_NAMES = [
  "default",
  "default",
  "file0",
  "file1",
  "file9",
  "file10",
  "file11",
  "file99",
  "File0",
  "file",
  "file-1",
  "file01",
  "default ",
  "",
  "attachment",
  'file0"; filename="x',
];

function part(xml: fc.Arbitrary<Buffer>): fc.Arbitrary<RawPart> {
  return fc.record({
    name: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...PART_NAMES) }, { weight: 1, arbitrary: absurdValue() }),
    fileName: fc.option(
      fc.oneof(
        fc.constantFrom("a.txt", "../../x", "C:\\\\x\\\\y.png", "", ".", "..", "\u0000.txt", "😀.bin", "x".repeat(400)),
        absurdValue(),
      ),
      { nil: undefined },
    ),
    type: fc.option(
      fc.constantFrom(
        "text/plain",
        "application/atom+xml",
        "image/png",
        "x",
        "",
        "text/plain; charset=latin1",
        "../../",
      ),
      { nil: undefined },
    ),
    content: fc.oneof(
      { weight: 2, arbitrary: xml },
      { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)) },
      { weight: 1, arbitrary: fc.constant(Buffer.alloc(70_000, 0x61)) },
    ),
  });
}

const BOUNDARY = fc.oneof(
  fc.constantFrom(
    "b0undary",
    "x",
    "----WebKitFormBoundary7MA4YWxkTrZu0gW",
    "a".repeat(70),
    "a".repeat(200),
    "é",
    "has space",
    '"quoted"',
  ),
  fc.stringMatching(/^[A-Za-z0-9'()+_,./:=?-]{1,40}$/),
);

/** A multipart body, valid or broken in one of the ways clients and attackers break them. */
export function multipartBody(xml: fc.Arbitrary<Buffer>): fc.Arbitrary<MultipartBody> {
  return fc
    .record({
      parts: fc.array(part(xml), { maxLength: 5 }),
      boundary: BOUNDARY,
      declared: fc.oneof(
        { weight: 6, arbitrary: fc.constant<"same" | "other" | "none" | "empty" | "quoted">("same") },
        {
          weight: 1,
          arbitrary: fc.constantFrom<"same" | "other" | "none" | "empty" | "quoted">(
            "other",
            "none",
            "empty",
            "quoted",
          ),
        },
      ),
      damage: fc.oneof(
        {
          weight: 4,
          arbitrary: fc.constant<"none" | "no-close" | "cut" | "no-header-end" | "bad-header" | "lf-only">("none"),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom<"none" | "no-close" | "cut" | "no-header-end" | "bad-header" | "lf-only">(
            "no-close",
            "cut",
            "no-header-end",
            "bad-header",
            "lf-only",
          ),
        },
      ),
      cutAt: fc.nat(),
      mediaType: fc.oneof(
        { weight: 6, arbitrary: fc.constant("multipart/form-data") },
        {
          weight: 1,
          arbitrary: fc.constantFrom("multipart/mixed", "MULTIPART/FORM-DATA", "multipart/form-data ; charset=utf-8"),
        },
      ),
    })
    .map(({ parts, boundary, declared, damage, cutAt, mediaType }) => {
      const eol = damage === "lf-only" ? "\n" : "\r\n";
      const chunks: Buffer[] = [];
      for (const p of parts) {
        const disposition =
          damage === "bad-header"
            ? `Content-Disposition: form-data name=${p.name}`
            : `Content-Disposition: form-data; name="${p.name}"${p.fileName === undefined ? "" : `; filename="${p.fileName}"`}`;
        const head = `--${boundary}${eol}${disposition}${eol}${p.type === undefined ? "" : `Content-Type: ${p.type}${eol}`}${damage === "no-header-end" ? "" : eol}`;
        chunks.push(Buffer.from(head, "utf8"), p.content, Buffer.from(eol));
      }
      if (damage !== "no-close") chunks.push(Buffer.from(`--${boundary}--${eol}`));
      let body = Buffer.concat(chunks);
      if (damage === "cut") body = body.subarray(0, cutAt % (body.length + 1));
      const parameter = {
        same: `; boundary=${boundary}`,
        other: "; boundary=not-the-one",
        none: "",
        empty: "; boundary=",
        quoted: `; boundary="${boundary}"`,
      }[declared];
      return { contentType: `${mediaType}${parameter}`, body };
    });
}

/** The part names the API's multipart bodies may carry, each at most once (docs/api.md). */
const API_PART_NAMES: ReadonlySet<string> = new Set(["default", ...Array.from({ length: 10 }, (_, i) => `file${i}`)]);

/**
 * The part names a body sends, by its declared boundary (quoted or not); undefined when the
 * Content-Type is not a multipart one with a boundary.
 */
export function multipartPartNames(contentType: string, body: Buffer): string[] | undefined {
  const match = /^multipart\/form-data\s*;.*boundary=(?:"([^"]*)"|([^\s;]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) return undefined;
  const escaped = boundary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const header = new RegExp(`--${escaped}\\r?\\nContent-Disposition: form-data; name="([^"]*)"`, "g");
  return [...body.toString("latin1").matchAll(header)].map((m) => Buffer.from(m[1]!, "latin1").toString("utf8"));
}

/** The first part name the API must refuse (unknown, or sent twice), if any. */
export function refusedPartName(names: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const name of names) {
    if (!API_PART_NAMES.has(name) || seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}
