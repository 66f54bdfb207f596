import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { NS } from "../../src/atom/namespaces.js";
import type { CabinetFile } from "../../src/domain/file.js";
import type { Group } from "../../src/domain/group.js";
import type { Task } from "../../src/domain/task.js";
import type { Topic } from "../../src/domain/topic.js";
import { authorizePage, deniedPage, problemPage, verifierPage } from "../../src/web/pages/authorize.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { addTestFile, addTestVersion, pngOf } from "../support/files.js";
import { entriesOf, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

/** Every `<a>`/`<link>` whose attributes match, as the browser reads them. */
function hrefs(html: string, pattern: RegExp): string[] {
  return [...html.matchAll(/<(?:a|link)\b[^>]*>/g)]
    .map((m) => m[0])
    .filter((tag) => pattern.test(tag))
    .map((tag) => /href="([^"]*)"/.exec(tag)?.[1]?.replace(/&amp;/g, "&") ?? "");
}

/** Text between tags, without markup, squeezed (what a person reads). */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ");
}

describeEachBackend("web pages (reading)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  let main: Topic;
  let trashed: Topic;
  let tasks: { inProgress: Task; completed: Task; open: Task };
  let image: CabinetFile;
  let web: WebClient;
  let g: string;

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice Aoki", email: "alice@example.com" });
    bob = await f.user({ name: "Bob Baba", email: "bob@example.com" });
    group = await f.group([alice, bob], { name: "Dev <Team> & Co", managers: [alice] });
    g = `/g/1:${group.id}`;
    const news = await f.boardFolder(group, "News");
    for (let i = 1; i <= 22; i++) {
      server.clock.advance(1000);
      await f.topic(group, bob, { title: `Filler ${String(i).padStart(2, "0")}` });
    }
    server.clock.advance(1000);
    trashed = await f.topic(group, bob, { title: "Old stuff", trashed: true });
    server.clock.advance(1000);
    main = await f.topic(group, alice, {
      title: "Release plan",
      body: "Ship it <script>alert(1)</script>\nline two",
      folderId: news,
      allowEdit: true,
    });
    const sprint = await f.folder(group, "TASK", "Sprint");
    tasks = {
      inProgress: await f.task(group, alice, {
        title: "Write docs",
        status: "IN_PROGRESS",
        dueAt: Date.UTC(2026, 3, 10),
        allDay: true,
        assigneeId: bob.id,
        folderId: sprint,
        priority: "A",
      }),
      completed: await f.task(group, alice, {
        title: "Set up CI",
        status: "COMPLETED",
        dueAt: Date.UTC(2026, 5, 1, 12),
        allDay: false,
      }),
      open: await f.task(group, bob, { title: "Think about logos", status: "NOT_STARTED" }),
    };
    const docs = await f.folder(group, "CABINET", "Docs");
    image = await addTestFile(server, group, alice, {
      fileName: "diagram.png",
      bytes: await pngOf(64, 48),
      title: "Diagram",
      memo: "First draft",
      folderId: docs,
      comment: "v1",
    });
    server.clock.advance(1000);
    image = await addTestVersion(server, image, bob, await pngOf(80, 60), "bigger");
    await addTestFile(server, group, bob, { fileName: "notes.txt", bytes: Buffer.from("notes") });
    await server.store.transaction((tx) =>
      tx.memberships.insertInvite({
        groupId: group.id,
        email: "carol@example.com",
        label: "Carol (invited)",
        expiresAt: Date.UTC(2026, 11, 24),
        createdAt: server.clock.now(),
      }),
    );

    // Comments, likes and a favorite through the pages themselves.
    const bobWeb = new WebClient(server.url);
    await bobWeb.signIn(bob.email);
    await bobWeb.get(`${g}/board/1:${main.id}`);
    assert.equal((await bobWeb.post(`${g}/board/1:${main.id}/comments`, { text: "First!" })).status, 303);
    web = new WebClient(server.url);
    await web.signIn(alice.email);
    await web.get(`${g}/board/1:${main.id}`);
    const form = new FormData();
    form.set("_csrf", web.csrf());
    form.set("text", "Agreed, see the picture.");
    form.set("replyTo", "1");
    form.append("files", new Blob([await pngOf(20, 10)], { type: "image/png" }), "shot.png");
    form.append("files", new Blob(["plain words"], { type: "text/plain" }), "words.txt");
    assert.equal((await web.postMultipart(`${g}/board/1:${main.id}/comments`, form)).status, 303);
    await bobWeb.get(`${g}/board/1:${main.id}`);
    assert.equal((await bobWeb.post(`${g}/board/1:${main.id}/comments/2/like`, { on: "true" })).status, 303);
    assert.equal((await bobWeb.post(`${g}/board/1:${main.id}/like`, { on: "true" })).status, 303);
    await web.get(`${g}/board/1:${main.id}`);
    assert.equal((await web.post(`${g}/board/1:${main.id}/favorite`, { on: "true" })).status, 303);
  });
  after(() => server.close());

  const pages = () => [
    "/",
    `${g}/board`,
    `${g}/board?folder=TRASH`,
    `${g}/board?page=2`,
    `${g}/board/1:${main.id}`,
    `${g}/board/1:${main.id}?reply=1`,
    `${g}/board/new`,
    `${g}/tasks`,
    `${g}/tasks?state=COMPLETED&from=2026-01-01&to=2026-12-31`,
    `${g}/tasks/1:${tasks.inProgress.id}`,
    `${g}/files`,
    `${g}/files?folder=ATTACH`,
    `${g}/files/1:${image.id}`,
    `${g}/members`,
    `${g}/members?status=INVITE`,
    "/favorites",
    "/todo",
    "/todo?state=open",
    "/settings",
  ];

  it("serves every page as valid HTML, in English and Japanese, on the desktop and the phone pages", async () => {
    for (const lang of ["en", "ja"]) {
      const reader = new WebClient(server.url, lang);
      await reader.signIn(alice.email);
      for (const variant of ["", "/m"]) {
        for (const path of pages()) {
          const answer = await reader.get(`${variant}${path === "/" && variant ? "" : path}`);
          assert.equal(answer.status, 200, `${lang} ${variant}${path}: ${answer.status}`);
          assert.match(answer.headers.get("content-type") ?? "", /^text\/html; charset=utf-8/);
          assert.match(answer.headers.get("content-security-policy") ?? "", /default-src 'self'/);
          assert.match(answer.html, new RegExp(`<html lang="${lang}">`));
          // The markup does not depend on the database: validated once, on the first backend.
          if (backend === "sqlite") await assertValidHtml(answer.html, `${lang} ${variant}${path}`);
        }
      }
    }
  });

  it("works without JavaScript: content is in the HTML, the only script is our own deferred file", async () => {
    const page = await web.get(`${g}/board/1:${main.id}`);
    const scripts = [...page.html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.deepEqual(
      scripts.map((tag) => /src="([^"?]*)/.exec(tag)?.[1]),
      ["/static/app.js"],
    );
    assert.ok(scripts.every((tag) => /\bdefer\b/.test(tag)));
    assert.doesNotMatch(page.html, /\sstyle=|\son[a-z]+=/, "no inline styles or event handlers (CSP)");
    assert.match(text(page.html), /Release plan/);
    assert.match(text(page.html), /First!/);
    const css = await fetch(`${server.url}${hrefs(page.html, /rel="stylesheet"/)[0]}`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get("content-type") ?? "", /text\/css/);
    assert.match(css.headers.get("cache-control") ?? "", /immutable/, "the versioned address is cached for good");
    const js = await fetch(`${server.url}/static/app.js`);
    assert.match(js.headers.get("content-type") ?? "", /text\/javascript/);
    assert.equal(js.headers.get("cache-control"), "no-cache", "an unversioned address is revalidated");
    assert.equal((await fetch(`${server.url}/static/nope.js`)).status, 404);
  });

  it("links each page's feed for autodiscovery", async () => {
    const feeds: Record<string, RegExp> = {
      "/": /\/api\/group\/V2$/,
      [`${g}/board`]: new RegExp(`/api/board/V2\\?group=1%3A${group.id}$`),
      [`${g}/board?folder=TRASH`]: /board-folder=TRASH/,
      [`${g}/board/1:${main.id}`]: new RegExp(
        `/api/comment/V2\\?entry=GROUP%2C1%3A${group.id}%2CBOARD%2C1%3A${main.id}$`,
      ),
      [`${g}/tasks`]: /\/api\/gwTask\/V2\?group=/,
      [`${g}/files`]: /\/api\/gwCabinet\/V2\?group=/,
      [`${g}/members`]: /\/api\/gwMemberList\/V2\?group=.*member-status=JOIN/,
      "/favorites": /\/api\/star\/V2$/,
      "/todo": /\/api\/task\/V2$/,
    };
    for (const [path, feed] of Object.entries(feeds)) {
      const links = hrefs((await web.get(path)).html, /rel="alternate" type="application\/atom\+xml"/);
      assert.equal(links.length, 1, path);
      assert.match(links[0]!, feed, path);
      assert.ok(links[0]!.startsWith(server.url), `${path}: an absolute URL under the base URL`);
      const answer = await request(links[0]!, { token: alice.token });
      assert.equal(answer.status, 200, `${path}: the linked feed answers`);
    }
    assert.equal(hrefs((await web.get("/settings")).html, /application\/atom\+xml/).length, 0, "no feed, no link");
  });

  it("opens the page each personal feed's own alternate link names", async () => {
    for (const [feed, page, shows] of [
      ["/api/star/V2", "/favorites", /Release plan/],
      ["/api/notification/V2", "/notifications", /Bob Baba commented/],
      ["/api/goodNotification/V2", "/notifications/likes", /Liked by Bob Baba/],
      ["/api/group/V2", "/", /Dev <Team> & Co/],
      ["/api/task/V2", "/todo", /ToDo/],
    ] as const) {
      const answer = await request(`${server.url}${feed}`, { token: alice.token });
      const alternate = /<feed[^]*?<link rel="alternate" type="text\/html" href="([^"]*)"/.exec(answer.text)?.[1] ?? "";
      assert.equal(alternate, `${server.url}${page}`, feed);
      assert.match(text((await web.get(page)).html), shows, page);
    }
  });

  it("opens the page every feed entry's alternate and mobile links name", async () => {
    const feeds = [
      { url: `/api/board/V2?group=1:${group.id}&board-folder=1:${main.folderId}`, expect: "Release plan" },
      { url: `/api/gwTask/V2?group=1:${group.id}`, expect: "Write docs" },
      { url: `/api/gwCabinet/V2?group=1:${group.id}&cabinet-folder=1:${image.folderId}`, expect: "Diagram" },
      { url: `/api/comment/V2?entry=GROUP,1:${group.id},BOARD,1:${main.id}`, expect: "First!" },
      { url: `/api/gwMemberList/V2?group=1:${group.id}`, expect: "Bob Baba" },
      { url: `/api/star/V2`, expect: "Release plan" },
      { url: `/api/group/V2`, expect: "Dev <Team> & Co" },
      { url: `/api/notification/V2`, expect: "First!" },
      { url: `/api/goodNotification/V2`, expect: "Release plan" },
    ];
    for (const feed of feeds) {
      const entries = entriesOf((await request(`${server.url}${feed.url}`, { token: alice.token })).xml);
      assert.ok(entries.length > 0, feed.url);
      const links = entries.flatMap((entry) =>
        entry.children.filter(
          (c) => c.ns === NS.atom && c.local === "link" && c.attributes.get("type") === "text/html",
        ),
      );
      const byRel = (rel: string) =>
        links.filter((l) => l.attributes.get("rel") === rel).map((l) => l.attributes.get("href") ?? "");
      const alternates = byRel("alternate");
      const mobiles = byRel("mobile");
      assert.ok(alternates.length > 0 && alternates.length === mobiles.length, feed.url);
      let found = false;
      for (const [i, alternate] of alternates.entries()) {
        const mobile = mobiles[i]!;
        assert.ok(
          alternate.startsWith(`${server.url}/`) && mobile.startsWith(`${server.url}/m/`),
          `${alternate} ${mobile}`,
        );
        for (const href of [alternate, mobile]) {
          const page = await web.open(href.slice(server.url.length).replace(/#.*$/, ""));
          assert.equal(page.status, 200, `${feed.url}: ${href}`);
          if (text(page.html).includes(feed.expect)) found = true;
        }
      }
      assert.ok(found, `${feed.url}: a linked page shows "${feed.expect}"`);
    }
  });

  it("shows a board page by page, by folder, and its trash", async () => {
    const first = await web.get(`${g}/board`);
    const titles = (html: string) => [...html.matchAll(/class="row-title" href="[^"]*">([^<]*)</g)].map((m) => m[1]);
    const page1 = titles(first.html);
    assert.equal(page1.length, 20);
    assert.equal(page1[0], "Release plan", "newest first");
    assert.ok(!page1.includes("Old stuff"), "the trash is not in the list");
    const next = hrefs(first.html, /rel="next"/)[0]!;
    assert.equal(next, `${g}/board?page=2`);
    const second = await web.get(next);
    assert.deepEqual(titles(second.html), ["Filler 03", "Filler 02", "Filler 01"]);
    assert.equal(hrefs(second.html, /rel="prev"/)[0], `${g}/board`);
    assert.equal(hrefs(second.html, /rel="next"/).length, 0);
    assert.deepEqual(titles((await web.get(`${g}/board?folder=TRASH`)).html), ["Old stuff"]);
    assert.deepEqual(titles((await web.get(`${g}/board?folder=1:${main.folderId}`)).html), ["Release plan"]);
    const folderNav = (await web.get(`${g}/board?folder=1:${main.folderId}`)).html;
    assert.match(folderNav, /<a href="[^"]*folder=1%3A\d+" aria-current="page">News<\/a>/);
    assert.equal(titles((await web.get(`${g}/board?folder=UNCLASSIFIED&page=2`)).html).length, 2);
    assert.equal((await web.get(`${g}/board?folder=nonsense`)).status, 400);
    assert.equal((await web.get(`${g}/board?folder=1:999999`)).status, 404);
    assert.equal((await web.get(`${g}/board/1:${trashed.id}`)).status, 200, "a trashed topic still opens");
  });

  it("shows a topic: escaped text, comments newest first, replies as replies, attachments, likes with names, favorite", async () => {
    const page = await web.get(`${g}/board/1:${main.id}`);
    assert.match(page.html, /Ship it &lt;script&gt;alert\(1\)&lt;\/script&gt;<br>\nline two/, "escaped, newlines kept");
    assert.doesNotMatch(page.html, /<script>alert/);
    assert.match(page.html, /<h1>Release plan<\/h1>/);
    assert.match(page.html, /Dev &lt;Team&gt; &amp; Co/);
    const order = [...page.html.matchAll(/<li id="comment-(\d+)" class="([^"]*)"/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(
      order,
      [
        ["2", "comment is-reply"],
        ["1", "comment"],
      ],
      "newest first; the reply is marked",
    );
    const reply = text(page.html.slice(page.html.indexOf('id="comment-2"'), page.html.indexOf('id="comment-1"')));
    assert.match(reply, /In reply to #1 by Bob Baba : “?First!/);
    assert.match(reply, /Liked by Bob Baba/);
    const topicPart = text(page.html.slice(0, page.html.indexOf('id="comments"')));
    assert.match(topicPart, /Liked by Bob Baba/, "who liked the topic");
    assert.match(topicPart, /Remove from favorites/, "alice's favorite shows");
    assert.match(topicPart, /Posted .*News .*Shared editing is on/);
    // Attachments: an image shows in place, everything downloads.
    const image = hrefs(page.html, /download/).find((href) => href.includes("ATTACHMENT%2C1"))!;
    const preview = /<img class="preview" src="([^"]*)" alt="Preview of shot.png"/
      .exec(page.html)?.[1]
      ?.replace(/&amp;/g, "&");
    assert.ok(preview, "an image preview");
    const inline = await fetch(`${server.url}${preview}`, {
      headers: { cookie: `kairan_session=${web.cookie("kairan_session")}` },
    });
    assert.equal(inline.status, 200);
    assert.equal(inline.headers.get("content-type"), "image/png");
    assert.match(inline.headers.get("content-disposition") ?? "", /^inline; filename="shot.png"/);
    assert.equal(inline.headers.get("content-security-policy"), "default-src 'none'; sandbox");
    const downloaded = await fetch(`${server.url}${image}`, {
      headers: { cookie: `kairan_session=${web.cookie("kairan_session")}` },
    });
    assert.match(downloaded.headers.get("content-disposition") ?? "", /^attachment; filename="shot.png"/);
    assert.deepEqual(Buffer.from(await downloaded.arrayBuffer()), await pngOf(20, 10));
    const words = hrefs(page.html, /download/).find((href) => href.includes("ATTACHMENT%2C2"))!;
    const wordsAnswer = await fetch(`${server.url}${words}&inline=true`, {
      headers: { cookie: `kairan_session=${web.cookie("kairan_session")}` },
    });
    assert.match(
      wordsAnswer.headers.get("content-disposition") ?? "",
      /^attachment;/,
      "only images are shown in place",
    );
    assert.equal(await wordsAnswer.text(), "plain words");
    assert.match(text(page.html), /Download words\.txt \(11 bytes\)/);
    // Reply form of ?reply=1.
    const replying = await web.get(`${g}/board/1:${main.id}?reply=1`);
    assert.match(replying.html, /<input type="hidden" name="replyTo" value="1">/);
    assert.match(text(replying.html), /Replying to comment #1/);
  });

  it("filters tasks by state, folder and due range", async () => {
    const titles = async (query: string) => {
      const page = await web.get(`${g}/tasks${query}`);
      assert.equal(page.status, 200, query);
      return [...page.html.matchAll(/<td data-label="Task"><a href="[^"]*">([^<]*)</g)].map((m) => m[1]).sort();
    };
    assert.deepEqual(await titles(""), ["Set up CI", "Think about logos", "Write docs"]);
    assert.deepEqual(await titles("?state=NOT_COMPLETED"), ["Think about logos", "Write docs"]);
    assert.deepEqual(await titles("?state=COMPLETED"), ["Set up CI"]);
    assert.deepEqual(await titles("?state=IN_PROGRESS"), ["Write docs"]);
    assert.deepEqual(await titles(`?folder=1:${tasks.inProgress.folderId}`), ["Write docs"]);
    assert.deepEqual(
      await titles("?from=2026-04-10&to=2026-04-10"),
      ["Write docs"],
      "an all-day task counts for its whole day",
    );
    assert.deepEqual(await titles("?from=2026-04-11&to=2026-12-31"), ["Set up CI"]);
    assert.deepEqual(await titles("?state=NOT_COMPLETED&from=2026-04-11&to=2026-12-31"), []);
    const page = await web.get(`${g}/tasks?state=IN_PROGRESS&from=2026-04-01`);
    assert.match(page.html, /<option value="IN_PROGRESS" selected>In progress<\/option>/, "the form keeps the filters");
    assert.match(page.html, /name="from" type="date" value="2026-04-01"/);
    const bad = await web.get(`${g}/tasks?from=2026-05-01&to=2026-04-01`);
    assert.equal(bad.status, 400);
    assert.match(text(bad.html), /term-end must be later than term-start/);
    await assertValidHtml(bad.html, "tasks with a bad range");
    const tooLong = await web.get(`${g}/tasks?from=2026-01-01&to=2027-06-01`);
    assert.equal(tooLong.status, 400);
    assert.equal((await web.get(`${g}/tasks?from=yesterday`)).status, 400);
    const task = await web.get(`${g}/tasks/1:${tasks.inProgress.id}`);
    const facts = text(task.html);
    assert.match(facts, /State In progress/);
    assert.match(facts, /Assignee Bob Baba/);
    assert.match(facts, /Due Apr 10, 2026/);
    assert.match(facts, /Priority A/);
    assert.match(facts, /Folder Sprint/);
    const ja = new WebClient(server.url, "ja");
    await ja.signIn(alice.email);
    assert.match(
      text((await ja.get(`${g}/tasks/1:${tasks.inProgress.id}`)).html),
      /状態 対応中/,
      "state labels in the page's language",
    );
  });

  it("shows shared files with folders, history and downloads, and the comment attachments", async () => {
    const list = await web.get(`${g}/files?folder=1:${image.folderId}`);
    assert.match(text(list.html), /Diagram diagram\.png .* Version 2/);
    assert.doesNotMatch(text(list.html), /notes\.txt/);
    const thumb = /<img class="thumb" src="([^"]*)"/.exec(list.html)?.[1]?.replace(/&amp;/g, "&");
    const thumbAnswer = await fetch(`${server.url}${thumb}`, {
      headers: { cookie: `kairan_session=${web.cookie("kairan_session")}` },
    });
    assert.equal(thumbAnswer.headers.get("content-type"), "image/png");
    const page = await web.get(`${g}/files/1:${image.id}`);
    const history = text(page.html.slice(page.html.indexOf('class="history"')));
    assert.match(
      history,
      /Version 2 by Bob Baba, .* bigger .*Download version 2 .*Version 1 by Alice Aoki, .* v1 .*Download version 1/s,
    );
    const v1 = hrefs(page.html, /download/).find((href) => href.endsWith("version=1"))!;
    const bytes = await fetch(`${server.url}${v1}`, {
      headers: { cookie: `kairan_session=${web.cookie("kairan_session")}` },
    });
    assert.deepEqual(Buffer.from(await bytes.arrayBuffer()), await pngOf(64, 48));
    assert.match(text(page.html), /First draft/);
    const attach = await web.get(`${g}/files?folder=ATTACH`);
    assert.deepEqual(hrefs(attach.html, /class="row-title"/), [
      `${g}/board/1:${main.id}#comment-2`,
      `${g}/board/1:${main.id}#comment-2`,
    ]);
  });

  it("lists members, joined and invited", async () => {
    const joined = text((await web.get(`${g}/members`)).html);
    assert.match(joined, /Joined \(2\)/);
    assert.match(joined, /Invited \(1\)/);
    assert.match(joined, /Alice Aoki \(you\) Manager/);
    assert.match(joined, /Bob Baba/);
    const invited = text((await web.get(`${g}/members?status=INVITE`)).html);
    assert.match(invited, /Carol \(invited\) Invitation valid until Dec 24, 2026, 12:00 AM/);
    assert.doesNotMatch(invited, /Bob Baba/);
  });

  it("lists my groups, favorites and settings", async () => {
    assert.match(text((await web.get("/")).html), /Dev <Team> & Co .*Board · Tasks · Files · Members/);
    const favorites = await web.get("/favorites");
    assert.deepEqual(hrefs(favorites.html, /class="row-title"/), [`${g}/board/1:${main.id}`]);
    const settings = text((await web.get("/settings")).html);
    assert.match(settings, /Dev <Team> & Co Notify Do not notify/);
    assert.equal((await web.get(g)).location, `${g}/board`, "a group opens on its board");
    assert.equal((await web.get(`/m${g}`)).location, `/m${g}/board`);
  });

  it("speaks the browser's language, else the server's", async () => {
    const page = async (acceptLanguage: string | undefined) => {
      const answer = await fetch(`${server.url}/signin`, {
        headers: acceptLanguage === undefined ? {} : { "accept-language": acceptLanguage },
      });
      return /<html lang="(\w+)">/.exec(await answer.text())?.[1];
    };
    assert.equal(await page("ja-JP,ja;q=0.9,en;q=0.8"), "ja");
    assert.equal(await page("en-GB,en;q=0.9"), "en");
    assert.equal(await page("fr-FR, en;q=0.5, ja;q=0.7"), "ja", "by q");
    assert.equal(await page("de, *;q=0.5"), "ja", "none of ours: the server's --locale");
    assert.equal(await page(undefined), "ja");
    assert.equal(await page("en;q=0, ja"), "ja");
  });

  it("answers browsers with an HTML 404 for an address that has no page, API clients with XML", async () => {
    const page = await web.get("/no/such/page");
    assert.equal(page.status, 404);
    assert.match(page.headers.get("content-type") ?? "", /text\/html/);
    assert.match(text(page.html), /There is no page at this address/);
    await assertValidHtml(page.html, "404");
    const api = await request(`${server.url}/no/such/endpoint`);
    assert.equal(api.status, 404);
    assert.match(api.headers.get("content-type") ?? "", /xml/);
    assert.equal((await web.get(`/g/abc/board`)).status, 404);
    assert.equal((await web.get(`${g}/board/1:999999`)).status, 404);
    assert.equal((await web.get(`${g}/tasks/1:${main.id + 999}`)).status, 404);
  });
});

describeEachBackend("web pages: a server whose --locale is en", (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(backend, { locale: "en" });
  });
  after(() => server.close());
  it("speaks English to a browser that names no language of ours", async () => {
    const answer = await fetch(`${server.url}/signin`, { headers: { "accept-language": "de" } });
    assert.match(await answer.text(), /<html lang="en">/);
  });
});

describe("the OAuth sign-in pages", () => {
  it("are valid HTML, styled like the rest of the site", async () => {
    const pages = [
      authorizePage({ appName: "Feed <Reader>", level: "read", token: "t", csrf: "c" }),
      authorizePage({
        appName: "Feed Reader",
        level: "Z",
        token: "t",
        csrf: "c",
        error: "The e-mail address or the password is wrong.",
        email: "a@example.com",
      }),
      verifierPage("Feed Reader", "verifier"),
      deniedPage("Feed Reader"),
      problemPage("Link expired", "Start again."),
    ];
    for (const html of pages) {
      await assertValidHtml(html, "OAuth page");
      assert.match(html, /<link rel="stylesheet" href="\/static\/app.css">/);
    }
    assert.match(pages[0]!, /Feed &lt;Reader&gt;/);
  });

  it("shows the authorize page's error in the sign-in page's error box, with Approve as the main button", () => {
    const withError = authorizePage({ appName: "R", level: "read", token: "t", csrf: "c", error: "Wrong password." });
    assert.match(withError, /<p class="notice notice-error" role="alert" id="error">Wrong password\.<\/p>/);
    assert.match(withError, /<input id="email"[^>]* aria-describedby="error">/);
    for (const html of [withError, authorizePage({ appName: "R", level: "read", token: "t", csrf: "c" })]) {
      assert.match(html, /<button type="submit" name="decision" value="approve" class="primary">Approve<\/button>/);
      assert.match(html, /<button type="submit" name="decision" value="deny" formnovalidate>Deny<\/button>/);
      assert.match(html, /<form method="post" action="\/oauth\/authorize" class="stack">/);
    }
  });
});
