// Names cannot lie about themselves, through the web pages: a file title, a group name or a
// person's name holding a bidi control (`x<U+202E>txt.exe` shows as `xexe.txt`) is refused like one
// holding any other control character, and nothing is written; an uploaded file's name loses them.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { ValidationError } from "../../src/domain/errors.js";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { addTestFile } from "../support/files.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

const RLO = "\u202e";

describeEachBackend("bidi controls in names (web)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let group: Group;
  let g: string;
  let web: WebClient;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    group = await server.factories.group([alice], { managers: [alice] });
    g = `/g/1:${group.id}`;
    web = new WebClient(server.url);
    await web.signIn(alice.email);
  });
  after(() => server.close());

  const files = () => server.store.read((tx) => tx.files.list(group.id, { kind: "all" }, { offset: 0, limit: 100 }));

  async function uploadFile(title: string, fileName: string) {
    await web.get(`${g}/files`);
    const form = new FormData();
    form.set("_csrf", web.csrf());
    form.set("title", title);
    form.append("file", new Blob([Buffer.from("MZ")]), fileName);
    return web.postMultipart(`${g}/files`, form);
  }

  async function assertRefused(answer: { status: number; html: string }, message: RegExp): Promise<void> {
    assert.equal(answer.status, 400, answer.html.slice(0, 400));
    assert.match(answer.html, message);
    await assertValidHtml(answer.html, "the refusal");
  }

  it("refuses a shared file whose title holds a bidi control, storing nothing; a received file name loses them", async () => {
    await assertRefused(await uploadFile(`report${RLO}fdp.exe`, "report.exe"), /file title must not contain control/);
    await assertRefused(await uploadFile(`a\u2067b`, "report.exe"), /file title must not contain control/);
    assert.deepEqual(await files(), [], "no file stored");
    // A browser's file name is cleaned, never refused (it is the person's own file): control
    // characters, bidi controls included, are dropped as C0 controls always were.
    assert.equal((await uploadFile("", `x${RLO}txt.exe`)).status, 303);
    assert.equal((await uploadFile("", `y\u2066z\u2069\u0007.txt`)).status, 303);
    assert.equal((await uploadFile("", "👩\u200d💻 notes.txt")).status, 303, "a zero-width joiner is kept");
    const names = (await files()).map((f) => f.current.fileName).sort();
    assert.deepEqual(names, ["xtxt.exe", "yz.txt", "👩\u200d💻 notes.txt"].sort());
  });

  it("refuses a file name holding one on the command line's path (the service `kairan file add` calls)", async () => {
    await assert.rejects(
      addTestFile(server, group, alice, { fileName: `x${RLO}txt.exe` }),
      (error: unknown) => error instanceof ValidationError && error.code === "FILE_NAME_INVALID",
    );
    await assert.rejects(
      addTestFile(server, group, alice, { fileName: "a.txt", title: `t${RLO}` }),
      (error: unknown) => error instanceof ValidationError && error.code === "FILE_TITLE_INVALID",
    );
  });

  it("refuses a group name holding one", async () => {
    const count = async () => (await server.store.read((tx) => tx.groups.listAll())).length;
    const before = await count();
    await web.get("/groups/new");
    await assertRefused(await web.post("/groups/new", { name: `Club${RLO}`, summary: "" }), /name must not contain/);
    assert.equal(await count(), before, "no group made");
  });

  it("refuses a person's name or reading holding one, changing nothing", async () => {
    for (const fields of [
      { name: `Alice${RLO}`, familyKana: "", givenKana: "" },
      { name: "Alice", familyKana: "\u200fか", givenKana: "" },
    ]) {
      await web.get("/account");
      await assertRefused(await web.post("/account/names", fields), /control characters/);
    }
    const stored = await server.store.read((tx) => tx.users.findById(alice.id));
    assert.equal(stored?.name, "Alice");
  });
});
