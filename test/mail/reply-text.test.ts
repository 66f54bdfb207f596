// The text of a reply by mail: quoting styles of real clients (as their text/plain parts look),
// signatures, replies below the quote, and the pre-pass that keeps the parser fast.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { TooLargeError } from "../../src/domain/errors.js";
import { MAIL_REPLY_LIMITS } from "../../src/domain/limits.js";
import { replyText } from "../../src/mail/reply/reply-text.js";

const NOTIFICATION = `Alice commented on "Budget" in Team:\n\nCan someone bring the slides?\n\nhttps://kairan.example/g/1:1/board/1:2`;
const quoted = (text: string) =>
  text
    .split("\n")
    .map((line) => (line === "" ? ">" : `> ${line}`))
    .join("\n");

/** Each client's reply as its text part looks: the reply "I will bring them." above (or below) the notification. */
const CLIENTS: Readonly<Record<string, string>> = {
  "Gmail (en)": `I will bring them.\n\nOn Fri, Nov 27, 2026 at 10:00 AM Kairan <kairan@kairan.example> wrote:\n\n${quoted(NOTIFICATION)}\n`,
  "Gmail (en), the header wrapped before the address": `I will bring them.\n\nOn Fri, Nov 27, 2026 at 10:00 AM Kairan Notifications <\nkairan@kairan.example> wrote:\n\n${quoted(NOTIFICATION)}\n`,
  "Gmail (ja)": `I will bring them.\n\n2026年11月27日(金) 10:00 Kairan <kairan@kairan.example>:\n\n${quoted(NOTIFICATION)}\n`,
  "Gmail (ja), the header wrapped before the address": `I will bring them.\n\n2026年11月27日(金) 10:00 Kairan Notifications <\nkairan@kairan.example>:\n\n${quoted(NOTIFICATION)}\n`,
  "Outlook, Original Message": `I will bring them.\n\n-----Original Message-----\nFrom: Kairan <kairan@kairan.example>\nSent: Friday, November 27, 2026 10:00 AM\nTo: Bob <bob@example.com>\nSubject: Budget\n\n${NOTIFICATION}\n`,
  "Outlook, a rule and a From block": `I will bring them.\n\n________________________________\nFrom: Kairan <kairan@kairan.example>\nSent: Friday, November 27, 2026 10:00 AM\nTo: Bob <bob@example.com>\nSubject: Budget\n\n${NOTIFICATION}\n`,
  "Outlook, a From block naming no address": `I will bring them.\n\nFrom: Kairan\nSent: Friday, November 27, 2026 10:00 AM\nTo: Bob\nSubject: Budget\n\n${NOTIFICATION}\n`,
  "Outlook (ja), 差出人 block": `I will bring them.\n\n差出人: Kairan <kairan@kairan.example>\n送信日時: 2026年11月27日 10:00\n宛先: Bob <bob@example.com>\n件名: 予算\n\n${NOTIFICATION}\n`,
  "Outlook (ja), 元のメッセージ": `I will bring them.\n\n-----元のメッセージ-----\n差出人: Kairan\n送信日時: 2026年11月27日 10:00\n\n${NOTIFICATION}\n`,
  "Apple Mail (en)": `I will bring them.\n\n> On Nov 27, 2026, at 10:00, Kairan <kairan@kairan.example> wrote:\n> \n${quoted(NOTIFICATION)}\n`,
  "Apple Mail on an iPhone": `I will bring them.\n\nSent from my iPhone\n\n> On Nov 27, 2026, at 10:00, Kairan <kairan@kairan.example> wrote:\n> \n${quoted(NOTIFICATION)}\n`,
  "Apple Mail (ja)": `I will bring them.\n\n2026/11/27 10:00、Kairan <kairan@kairan.example>のメール:\n\n${quoted(NOTIFICATION)}\n`,
  "Thunderbird (ja)": `I will bring them.\n\nKairan さんは書きました:\n${quoted(NOTIFICATION)}\n`,
  "Thunderbird (en), below the quote": `On 11/27/26 10:00, Kairan wrote:\n${quoted(NOTIFICATION)}\n\nI will bring them.\n`,
  "a client writing only '... wrote:'": `I will bring them.\n\nKairan wrote:\n\n${quoted(NOTIFICATION)}\n`,
  "a signature after '-- '": `I will bring them.\n\n-- \nBob Example\nACME Corp, +81 3 0000 0000\n`,
  "Windows line breaks": `I will bring them.\r\n\r\nOn Fri, Nov 27, 2026 at 10:00 AM Kairan <kairan@kairan.example> wrote:\r\n\r\n> Can someone bring the slides?\r\n`,
};

describe("the text of a reply by mail", () => {
  for (const [client, text] of Object.entries(CLIENTS)) {
    it(`keeps only the reply: ${client}`, () => {
      assert.equal(replyText(text), "I will bring them.");
    });
  }

  it("keeps a reply of several paragraphs, in Japanese too, with its own colons and dates", () => {
    const own =
      "承知しました。\n\n2026年11月28日(土) 10:00 から会議です\nFrom: 東京\nTo do: slides\n\n3 points:\n- one\n- two";
    assert.equal(replyText(`${own}\n\n2026年11月27日(金) 10:00 Kairan <k@kairan.example>:\n\n> 引用\n`), own);
    assert.equal(replyText("On Monday I can.\nKairan wrote:\n> Who comes?\n"), "On Monday I can.");
  });

  it("keeps what the parser would take for a header when it is not one: long lines, Dutch-looking starts", () => {
    const own = ["Op maandag kom ik.", "W sumie tak.", "etc. and so on", "在家", "x".repeat(5000)].join("\n");
    assert.equal(replyText(own), own);
  });

  it("leaves nothing of a message that is all quote or signature", () => {
    assert.equal(
      replyText(`On Fri, Nov 27, 2026 at 10:00 AM Kairan <k@kairan.example> wrote:\n${quoted(NOTIFICATION)}\n`),
      "",
    );
    assert.equal(replyText("\n\n-- \nBob\n"), "");
    assert.equal(replyText(""), "");
  });

  it("removes what no comment can hold: NUL and other control characters, a byte order mark", () => {
    assert.equal(replyText("\ufeffI will\u0000 bring\u0007 them.\f"), "I will bring them.");
  });

  it("cuts a reply too long for the parser at its quote, and refuses one still too long", () => {
    const reply = "I will bring them.";
    const history = quoted("x".repeat(200)).repeat(1 + MAIL_REPLY_LIMITS.textMaxChars / 200);
    assert.equal(replyText(`${reply}\n\n${history}`), reply);
    const tooLong = "y ".repeat(MAIL_REPLY_LIMITS.textMaxChars / 2 + 1);
    assert.throws(
      () => replyText(tooLong),
      (error) => error instanceof TooLargeError && error.code === "REPLY_TEXT_TOO_LONG",
    );
    assert.equal(replyText("y".repeat(MAIL_REPLY_LIMITS.textMaxChars - 1)).length, MAIL_REPLY_LIMITS.textMaxChars - 1);
  });

  it(
    "runs on crafted text that made the parser's line-spanning patterns take seconds (a hang fails the run)",
    { timeout: 120_000 },
    () => {
      const size = MAIL_REPLY_LIMITS.textMaxChars - 100;
      for (const line of [
        "abc. x skrev y",
        "Op x schreef",
        "W dniu x pisze",
        "在 x 写道",
        "12:00" + '2026"<>'.repeat(40),
      ]) {
        const text = `${line}\n`.repeat(Math.floor(size / (line.length + 1)));
        assert.equal(replyText(text).length > 0, true, line);
      }
    },
  );

  it("knows every line-spanning pattern of the parser it shields (re-check the pre-pass when this changes)", () => {
    const main = createRequire(import.meta.url).resolve("email-reply-parser");
    const source = readFileSync(join(dirname(main), "regex.js"), "utf8");
    const spanning = source.split("\n").filter((line) => /^\s*\/.*\[\\s\\S\]/.test(line));
    assert.deepEqual(
      spanning.map((line) => /\((Op|\(W|在|\[a-z\])/.exec(line)?.[1]),
      ["Op", "(W", "在", "[a-z]"],
    );
  });
});
