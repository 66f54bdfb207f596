// Every form of every page, filled every way: the pages are found by crawling (signed out, as a
// member, as a manager), their forms read from the HTML, and each form is sent filled plainly,
// left empty, and with generated hostile fillings (huge, unicode, wrong types, missing or wrong
// form token, duplicated and unknown fields, odd files, the other encoding). No answer may be a
// server fault, and a redirect stays on the site. A page or form added later joins by itself.
import assert from "node:assert/strict";
import { after, before, it, type TestContext } from "node:test";
import fc from "fast-check";
import { unlockUser } from "../../src/services/account/account-admin.js";
import { issueLink } from "../../src/services/account/account-links.js";
import { insertPlaceholderAccount } from "../../src/services/account/account-write.js";
import { hashToken } from "../../src/auth/token.js";
import { describeEachBackend } from "../support/backends.js";
import { crawl, pagePattern } from "../support/crawl.js";
import { PASSWORD, type TestUser } from "../support/factories.js";
import { type Form, formsOf, linksOf } from "../support/forms.js";
import { shortOrLong } from "../support/long.js";
import { SoftAuthenticator, passkeyOptionsOfPage } from "../support/passkey.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { enrolTotp } from "../support/totp.js";
import { type WebAnswer, WebClient } from "../support/web.js";
import { pendingSignIn, seedGroup } from "../support/world.js";
import { type Filling, PAGE_TOKEN, emptyFilling, fillings, isTokenField, plainFilling } from "../fuzz/inputs/forms.js";

const RUNS = Number(process.env.KAIRAN_FUZZ_RUNS ?? shortOrLong(5, 200));
const SEED = Number(process.env.KAIRAN_FUZZ_SEED ?? 20_261_124);
const LIMITS = { pages: 150, perPattern: 2 };
const CLAIM_SECRET = "claim-secret-of-the-forms-crawl-0123";

/**
 * Forms that take something away (an item, a membership, a token, the session) are sent last,
 * so that the forms found beside what they remove are still there to be tried.
 */
const TAKES_AWAY = /\/(?:delete|remove|leave|revoke|trash|decline|release|signout)$/;

/** A form and the page it was found on (read again before it is sent: tokens and ids change). */
interface Found {
  readonly page: string;
  readonly form: Form;
}

/**
 * What makes two forms the same form: method, kind of action and field names. The phone pages'
 * forms (under /m) run the desktop pages' handlers and count as theirs.
 */
const shapeOf = (form: Form): string =>
  `${form.method} ${pagePattern(new URL(form.action)).replace(/^\/m(?=\/|$)/, "")} ${form.fields.map((f) => f.name).join(",")}`;

const sitePath = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** Crawls from `starts` and returns one form of each shape, the ones that take away last. */
async function findForms(web: WebClient, starts: readonly string[]): Promise<{ pages: number; forms: Found[] }> {
  const found = new Map<string, Found>();
  let pages = 0;
  for (const start of starts) {
    const visited = await crawl(
      `${web.base}${start}`,
      async (url) => {
        const answer = await web.get(sitePath(url));
        assert.ok(answer.status < 500, `GET ${url}: ${answer.status} ${answer.html.slice(0, 200)}`);
        for (const form of formsOf(answer.html, url))
          if (!found.has(shapeOf(form))) found.set(shapeOf(form), { page: url, form });
        const links = linksOf(answer.html, url);
        return { status: answer.status, links: answer.location ? [...links, answer.location] : links };
      },
      LIMITS,
    );
    pages += visited.length;
  }
  const forms = [...found.values()].sort(
    (a, b) =>
      Number(TAKES_AWAY.test(new URL(a.form.action).pathname)) -
      Number(TAKES_AWAY.test(new URL(b.form.action).pathname)),
  );
  return { pages, forms };
}

/** The form as its page shows it now, or undefined when the page or the form is gone. */
async function again(web: WebClient, found: Found): Promise<Form | undefined> {
  const answer = await web.get(sitePath(found.page));
  if (answer.status !== 200) return undefined;
  return formsOf(answer.html, found.page).find((form) => shapeOf(form) === shapeOf(found.form));
}

/** Sends `form` filled as `filling`, the way a browser (or a script imitating one) would. */
function submit(web: WebClient, form: Form, filling: Filling): Promise<WebAnswer> {
  const token = form.fields.find(isTokenField)?.value ?? "";
  const pairs = filling.pairs.map(([name, value]) => [name, value === PAGE_TOKEN ? token : value] as const);
  const action = new URL(form.action);
  if (form.method === "GET") {
    action.search = new URLSearchParams(pairs.map(([n, v]): [string, string] => [n, v])).toString();
    return web.get(sitePath(action.href));
  }
  if (!filling.multipart) return web.postPairs(sitePath(action.href), pairs);
  const body = new FormData();
  for (const [name, value] of pairs) body.append(name, value);
  for (const file of filling.files)
    body.append(file.field, new Blob([Buffer.alloc(file.size, 0x61)], { type: file.type }), file.fileName);
  return web.postMultipart(sitePath(action.href), body);
}

/** What the runs of all forms answered: how often each status, and how many plain fillings got through. */
interface Tally {
  readonly statuses: Record<number, number>;
  plainAccepted: number;
  plainSent: number;
}

/** Sends every found form every way; each answer must be no fault and any redirect must stay on the site. */
async function tryEveryForm(t: TestContext, web: WebClient, found: readonly Found[], signIn?: () => Promise<void>) {
  const tally: Tally = { statuses: {}, plainAccepted: 0, plainSent: 0 };
  for (const entry of found) {
    const label = `${entry.form.method} ${pagePattern(new URL(entry.form.action))} (on ${pagePattern(new URL(entry.page))})`;
    await t.test(label, async (st) => {
      const form = await again(web, entry);
      if (!form) return st.skip("its page or the form is gone (an earlier form took it away)");
      const plain = plainFilling(form);
      const check = async (filling: Filling) => {
        const answer = await submit(web, form, filling);
        const said = `${label} with ${JSON.stringify(filling).slice(0, 600)}: ${answer.status} ${answer.html.slice(0, 300)}`;
        assert.ok(answer.status < 500, said);
        if (answer.status >= 300 && answer.status < 400) assert.match(answer.location ?? "", /^\/(?![/\\])/, said);
        // Addresses over 8 KB (414) and request heads over 16 KB (431) are refused before routing,
        // by the server's own limits, for every client alike; every other answer is a page.
        else if (answer.status !== 414 && answer.status !== 431)
          assert.match(answer.headers.get("content-type") ?? "", /^text\/html; charset=utf-8/, said);
        tally.statuses[answer.status] = (tally.statuses[answer.status] ?? 0) + 1;
        if (filling === plain && form.method === "POST") {
          tally.plainSent++;
          if (answer.status < 400) tally.plainAccepted++;
        }
      };
      await check(plain);
      await check(emptyFilling(form));
      await fc.assert(fc.asyncProperty(fillings(form), check), { numRuns: RUNS, seed: SEED });
      // A form that ended the session (signing out) leaves the next forms a signed-out client.
      if (signIn && (await web.get("/")).status !== 200) await signIn();
    });
  }
  t.diagnostic(`answers: ${JSON.stringify(tally)}`);
  return tally;
}

describeEachBackend("every form of every crawled page, however filled", (backend) => {
  let server: TestServer;
  let manager: TestUser;
  let member: TestUser;
  /** An invitation link that hands over an imported placeholder (its form on the signed-out pages). */
  let claimLink: string;

  before(async () => {
    server = await startTestServer(backend);
    manager = await server.factories.user({ name: "Manager" });
    member = await server.factories.user({ name: "Member" });
    const home = await seedGroup(server, manager, [member], "home");
    await server.factories.topic(home.group, member, { title: "member's topic" });
    await server.factories.comment(await server.factories.topic(home.group, manager), member);
    // Two imported placeholders among the members: the manager's members page offers to invite
    // their persons, and one of them has an invitation already, whose link a signed-out person opens.
    claimLink = await server.store.transaction(async (tx) => {
      const at = server.clock.now();
      const ids: number[] = [];
      for (const name of ["Imported One", "Imported Two"]) {
        const email = `${name.replace(" ", ".").toLowerCase()}@placeholder.invalid`;
        const user = await insertPlaceholderAccount(tx, { name, email, familyKana: "", givenKana: "" }, at);
        await tx.memberships.insertJoined({
          groupId: home.group.id,
          userId: user.id,
          manager: false,
          notify: true,
          createdAt: at,
        });
        ids.push(user.id);
      }
      const memberId = await tx.memberships.insertInvite({
        groupId: home.group.id,
        email: "claimer@example.com",
        label: "Imported Two",
        expiresAt: at + 30 * 24 * 60 * 60 * 1000,
        tokenHash: hashToken(CLAIM_SECRET),
        claimUserId: ids[1] ?? 0,
        createdAt: at,
      });
      return `/join/1:${memberId}/${CLAIM_SECRET}`;
    });
  });
  after(() => server.close());

  it(`signed out: the sign-in, OAuth approval and account link forms (${RUNS} generated fillings each, seed ${SEED})`, async (t) => {
    const web = new WebClient(server.url);
    const pending = await pendingSignIn(server, manager.consumer);
    // The pages of mailed links, for an account of their own (a reset or a change it may undergo).
    const linked = await server.factories.user({ name: "Linked" });
    const link = (purpose: "password-reset" | "address-confirm", email: string | null) =>
      server.store.transaction((tx) =>
        issueLink(tx, { purpose, userId: linked.id, email, lifetimeMs: 60 * 60 * 1000 }, server.clock.now()),
      );
    const reset = await link("password-reset", null);
    const confirm = await link("address-confirm", "linked.new@example.com");
    // The second step of a sign-in (two-factor): its page opens only after a right password.
    const twoStep = await server.factories.user({ name: "Two Step" });
    const enrolling = new WebClient(server.url);
    await enrolling.signIn(twoStep.email);
    await enrolTotp(enrolling, () => server.clock.now());
    // And a passkey: the second step offers it, beside the code.
    const setup = await enrolling.get("/account/two-factor");
    const key = new SoftAuthenticator(server.url);
    const added = await enrolling.post("/account/passkeys/add", {
      name: "Key",
      response: key.create(passkeyOptionsOfPage(setup.html, "passkey-add")),
    });
    assert.equal(added.status, 303);
    await web.get("/signin");
    assert.equal((await web.post("/signin", { email: twoStep.email, password: PASSWORD })).status, 303);
    const { pages, forms } = await findForms(web, [
      "/signin/second-factor",
      "/signin",
      `/oauth/authorize?oauth_token=${pending.token}`,
      `/password/reset/${reset.secret}`,
      `/account/email/confirm/${confirm.secret}`,
      claimLink,
    ]);
    const actions = forms.map((f) => new URL(f.form.action).pathname);
    assert.ok(actions.includes("/signin") && actions.includes("/oauth/authorize"), `forms found: ${actions}`);
    for (const path of [
      "/signin/second-factor",
      "/signin/second-factor/passkey",
      "/signin/passkey",
      "/password/forgot",
      `/password/reset/${reset.secret}`,
      `/account/email/confirm/${confirm.secret}`,
      claimLink,
    ])
      assert.ok(actions.includes(path), `the form of ${path.replace(/[^/]{32}$/, "SECRET")} is found`);
    t.diagnostic(`${forms.length} forms on ${pages} pages`);
    await tryEveryForm(t, web, forms);
  });

  for (const who of ["member", "manager"] as const) {
    it(`signed in as a ${who}: every form reached from the home page (${RUNS} generated fillings each, seed ${SEED})`, async (t) => {
      const user = who === "member" ? member : manager;
      const web = new WebClient(server.url);
      // Hostile fillings of the password form guess wrong current passwords, which count as failed
      // sign-ins (the throttle, per account and per address): signing in again afterwards waits the
      // address's backoff out and has the operator unlock the account.
      const signIn = async () => {
        server.clock.advance(60 * 60 * 1000);
        await unlockUser(server, user.email);
        await web.signIn(user.email);
      };
      await signIn();
      const { pages, forms } = await findForms(web, ["/"]);
      t.diagnostic(`${forms.length} forms on ${pages} pages`);
      // The seeded group shows a board, a topic with comments, tasks, files, members and settings:
      // fewer forms means the crawl lost its way.
      assert.ok(forms.length >= 10, `only ${forms.length} forms found on ${pages} pages`);
      // Deleting one's own account is found, and sent last (it takes away); the crawler never
      // knows the password, so its user is not deleted out from under the next runs.
      const paths = forms.map((f) => new URL(f.form.action).pathname);
      assert.ok(paths.includes("/account/delete"), `forms found: ${paths.join(", ")}`);
      if (who === "manager") {
        const actions = forms.map((found) => pagePattern(new URL(found.form.action)));
        assert.ok(actions.includes("/g/N:N/members/N:N/claim"), "the invitation to take over a placeholder");
      }
      const tally = await tryEveryForm(t, web, forms, signIn);
      const still = await server.store.read((tx) => tx.users.findById(user.id));
      assert.equal(still?.name, user.name, "the crawler's own account is still there");
      // Plain fillings must get through the form token and reach what the forms do; a crawler
      // whose every submission is refused at the door would test nothing.
      assert.ok(tally.plainAccepted * 2 >= tally.plainSent, `plain fillings accepted: ${JSON.stringify(tally)}`);
    });
  }

  // Last: the administration's forms disable, delete and demote accounts, the member's and the manager's among them.
  it(`signed in as a site administrator: every form reached from /admin (${RUNS} generated fillings each, seed ${SEED})`, async (t) => {
    const admin = await server.factories.user({ name: "Administrator" });
    await server.store.transaction((tx) => tx.users.update(admin.id, { siteAdmin: true }));
    const web = new WebClient(server.url);
    const signIn = async () => {
      server.clock.advance(60 * 60 * 1000);
      await unlockUser(server, admin.email);
      await web.signIn(admin.email);
    };
    await signIn();
    const { pages, forms } = await findForms(web, ["/admin"]);
    t.diagnostic(`${forms.length} forms on ${pages} pages`);
    const actions = forms.map((found) => pagePattern(new URL(found.form.action)));
    for (const path of [
      "/admin/users/new",
      "/admin/settings",
      "/admin/settings/mail",
      "/admin/audit",
      "/admin/groups/new",
      "/admin/import",
    ])
      assert.ok(actions.includes(path), `the form of ${path} is found (${actions.join(", ")})`);
    await tryEveryForm(t, web, forms, signIn);
  });
});
