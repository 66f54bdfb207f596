// Names cannot lie about themselves, through the API: a room title holding a bidi control is
// refused like one holding any other control character, and an attachment's file name loses its
// control characters (bidi controls included) the way it always lost C0 controls.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import { ChatClient, roomNumberOf } from "../support/chat.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, assertError, atomText, entriesOf, request } from "../support/http.js";
import { postMultipart } from "../support/multipart.js";
import { type TestServer, startTestServer } from "../support/server.js";

const RLO = "\u202e";

describeEachBackend("bidi controls in names (API)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  let chat: ChatClient;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    group = await server.factories.group([alice, bob]);
    chat = new ChatClient(server);
  });
  after(() => server.close());

  const themeRooms = async () => entriesOf((await chat.rooms(alice, "chat-type=THEME&max-results=100")).xml).length;

  it("refuses a room title holding a bidi control, creating or renaming, and writes nothing", async () => {
    const before = await themeRooms();
    for (const c of [RLO, "\u2067", "\u200f", "\u061c"])
      assertError(
        await chat.writeRoom(alice, "insert", `<title>x${c}txt.exe</title><cbl:who id="1:${bob.id}"/>`),
        400,
        "CHAT_ROOM_TITLE_INVALID",
      );
    assert.equal(await themeRooms(), before, "no room made");
    const room = await chat.theme(alice, "Lunch", [bob]);
    const id = `MYPAGE,1:${alice.id},MP_CHAT,1:${room}`;
    assertError(
      await chat.writeRoom(alice, "update", `<id>${id}</id><title>Lun${RLO}hc</title>`),
      400,
      "CHAT_ROOM_TITLE_INVALID",
    );
    const entry = entriesOf((await chat.rooms(alice, "chat-type=THEME&max-results=100")).xml).find(
      (e) => roomNumberOf(e) === room,
    );
    assert.equal(atomText(entry!, "title"), "Lunch", "the title is unchanged");
  });

  it("keeps a room title with a zero-width joiner (emoji and some scripts need it)", async () => {
    assert.ok((await chat.theme(alice, "👩\u200d💻 dev", [bob])) > 0);
  });

  it("strips bidi controls from an attachment's file name, as it strips C0 controls", async () => {
    const topic = await server.factories.topic(group, alice);
    const topicId = `GROUP,1:${group.id},BOARD,1:${topic.id}`;
    const xml = `<feed ${CLIENT_NS}><cbl:operation type="insert"/><id>${topicId}</id><entry><summary type="text">see</summary></entry></feed>`;
    const answer = await postMultipart(`${server.url}/api/comment/V2`, alice.token, [
      { name: "default", text: xml },
      { name: "file0", fileName: `x${RLO}txt.exe`, size: 4 },
      { name: "file1", fileName: `a\u2066b\u2069\u0007.txt`, size: 4 },
    ]);
    assert.equal(answer.status, 200, answer.text);
    const read = await request(`${server.url}/api/comment/V2?entry=${topicId}`, { token: alice.token });
    const names = [...read.text.matchAll(/<cbl:attachment fileName="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(names, ["xtxt.exe", "ab.txt"]);
  });
});
