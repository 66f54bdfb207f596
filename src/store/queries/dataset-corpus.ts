// The text of generated comments (`kairan generate`): windows of one long, fixed, mixed English and
// Japanese text, so that a search term matches a realistic share of the comments (a word of the
// text a fraction of a percent of them) instead of all of them, as a repeated sentence would.

/** Syllables of the made-up words: enough of them that most words occur a few times in the text. */
const LATIN = ["ka", "lo", "mer", "tin", "sa", "vu", "ren", "do", "pi", "qua", "bel", "zo", "ni", "tor", "ex", "ul"];
const KANA = [
  "検",
  "索",
  "会",
  "議",
  "予",
  "定",
  "資",
  "料",
  "報",
  "告",
  "確",
  "認",
  "開",
  "発",
  "設",
  "計",
  "の",
  "を",
  "で",
  "テ",
  "ス",
  "ト",
];

/** The length of the text: comment windows start anywhere in its first CORPUS_CHARS - 160 characters. */
export const CORPUS_CHARS = 60_000;

/** A deterministic pseudo-random sequence (a 32-bit LCG): the same text on every run and machine. */
function* numbers(seed: number): Generator<number> {
  let x = seed >>> 0;
  for (;;) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    yield x >>> 8;
  }
}

/** Builds the text: sentences of made-up English words, every third sentence Japanese. */
function buildCorpus(): string {
  const next = numbers(20_260_401);
  const pick = <T>(list: readonly T[]) => list[(next.next().value as number) % list.length]!;
  const word = (syllables: readonly string[], min: number) =>
    Array.from({ length: min + ((next.next().value as number) % 3) }, () => pick(syllables)).join("");
  let text = "";
  for (let sentence = 0; text.length < CORPUS_CHARS; sentence++) {
    const japanese = sentence % 3 === 2;
    const words = Array.from({ length: 5 + ((next.next().value as number) % 6) }, () =>
      japanese ? word(KANA, 2) : word(LATIN, 2),
    );
    text += japanese ? `${words.join("")}。` : `${words.join(" ")}. `;
  }
  return text.slice(0, CORPUS_CHARS);
}

/** The generated comments' text. */
export const CORPUS = buildCorpus();
