// Fillings of an HTML form: what a person, a script or an attacker may send where the page
// offers a form. Each field is filled plausibly for its type, with a hostile value (empty, huge,
// unicode, wrong type), left out, or sent twice; the form token is kept, dropped, wrong or
// doubled; unknown fields are added; files of odd names and sizes are attached; a urlencoded
// form is sometimes sent as multipart and the other way round.
import fc from "fast-check";
import type { Form, FormField } from "../../support/forms.js";
import { absurdValue } from "./values.js";

/** Stands for the form token the page carried (it is read again just before sending). */
export const PAGE_TOKEN = Symbol("the page's form token");

/** A field value, or the page's form token. */
export type FillValue = string | typeof PAGE_TOKEN;

/** A file attached to a file field. */
export interface FillFile {
  readonly field: string;
  readonly fileName: string;
  readonly type: string;
  readonly size: number;
}

/** A field name and what is sent for it. */
export type Pair = readonly [string, FillValue];

const pair = (name: string, value: FillValue): Pair => [name, value];

/** One way of sending a form. */
export interface Filling {
  readonly pairs: readonly Pair[];
  readonly files: readonly FillFile[];
  /** Whether the body is multipart (the form's own encoding, or the other one). */
  readonly multipart: boolean;
}

/** Field names that carry the form token against cross-site requests. */
export const isTokenField = (f: FormField): boolean => f.type === "hidden" && /csrf/i.test(f.name);

/** A value the field accepts, as a person would type or choose it. */
export function plausible(field: FormField): string {
  if (field.value !== "" || field.type === "hidden") return field.value;
  const typed: Readonly<Record<string, string>> = {
    email: "someone@example.com",
    password: "a plausible passphrase",
    date: "2026-04-02",
    time: "09:30",
    "datetime-local": "2026-04-02T09:30",
    number: "1",
    url: "https://example.com/",
    select: field.options[0] ?? "",
  };
  return typed[field.type] ?? "Filled by the form crawler";
}

/** Hostile values: the fuzzers' absurd values, huge ones, and markup. */
const hostile: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: absurdValue() },
  {
    weight: 1,
    arbitrary: fc.constantFrom("x".repeat(70_000), "あ".repeat(30_000), "😀".repeat(10_000), "\n".repeat(20_000)),
  },
  { weight: 1, arbitrary: fc.constantFrom('"><script>alert(1)</script>', "javascript:alert(1)", "<b>bold</b>") },
);

function fieldPairs(field: FormField): fc.Arbitrary<readonly Pair[]> {
  const name = field.name;
  if (isTokenField(field))
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant([pair(name, PAGE_TOKEN)]) },
      { weight: 1, arbitrary: fc.constant<readonly Pair[]>([]) },
      { weight: 1, arbitrary: hostile.map((v) => [pair(name, v)]) },
      { weight: 1, arbitrary: hostile.map((v) => [pair(name, PAGE_TOKEN), pair(name, v)]) },
    );
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant([pair(name, plausible(field))]) },
    { weight: 3, arbitrary: hostile.map((v) => [pair(name, v)]) },
    { weight: 1, arbitrary: fc.constant<readonly Pair[]>([]) },
    { weight: 1, arbitrary: fc.constant([pair(name, "")]) },
    { weight: 1, arbitrary: hostile.map((v) => [pair(name, plausible(field)), pair(name, v)]) },
  );
}

const fileOf = (field: string): fc.Arbitrary<FillFile> =>
  fc.record({
    field: fc.constant(field),
    fileName: fc.oneof(
      fc.constantFrom("notes.txt", "写真.png", "", "../../etc/passwd", "a\u0000b.txt", "x".repeat(300), ".htaccess"),
      fc.string({ maxLength: 20 }),
    ),
    type: fc.constantFrom("text/plain", "image/png", "application/octet-stream", "", "text/html"),
    size: fc.oneof(fc.constant(0), fc.nat({ max: 4096 })),
  });

/** Every way of filling `form` (fast-check draws from it). */
export function fillings(form: Form): fc.Arbitrary<Filling> {
  const fields = form.fields.filter((f) => f.type !== "file");
  const fileFields = form.fields.filter((f) => f.type === "file");
  const names = [...new Set(form.fields.map((f) => f.name)), "_method", "id[]", "__proto__", "constructor"];
  return fc.record({
    pairs: fc
      .tuple(
        fc.tuple(...fields.map(fieldPairs)),
        fc.array(fc.tuple(fc.constantFrom(...names), hostile), { maxLength: 2 }),
        form.submitters.length ? fc.option(fc.constantFrom(...form.submitters)) : fc.constant(null),
      )
      .map(([each, extra, submitter]) => [
        ...each.flat(),
        ...extra,
        ...(submitter ? [[submitter.name, submitter.value] as const] : []),
      ]),
    files: fc.tuple(...fileFields.map((f) => fc.array(fileOf(f.name), { maxLength: 3 }))).map((all) => all.flat()),
    multipart: fc.oneof(
      { weight: 9, arbitrary: fc.constant(form.multipart) },
      { weight: 1, arbitrary: fc.constant(!form.multipart) },
    ),
  });
}

/** The filling a person makes: every field plausible, the token kept, the first button pressed. */
export function plainFilling(form: Form): Filling {
  const submitter = form.submitters[0];
  return {
    pairs: [
      ...form.fields
        .filter((f) => f.type !== "file" && (f.checked || !["checkbox", "radio"].includes(f.type)))
        .map((f) => [f.name, isTokenField(f) ? PAGE_TOKEN : plausible(f)] as const),
      ...(submitter ? [[submitter.name, submitter.value] as const] : []),
    ],
    files: [],
    multipart: form.multipart,
  };
}

/** Everything left empty, the token kept: what pressing the button at once sends. */
export function emptyFilling(form: Form): Filling {
  return {
    pairs: form.fields
      .filter((f) => f.type !== "file")
      .map((f) => [f.name, isTokenField(f) ? PAGE_TOKEN : f.type === "hidden" ? f.value : ""] as const),
    files: [],
    multipart: form.multipart,
  };
}
