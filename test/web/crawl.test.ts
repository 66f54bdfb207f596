// The crawl that the accessibility check and the forms crawler share visits pages only: a link to
// a download (a stored file, an audit export) or a feed would make Chromium start a download where
// the check waits for a page to load.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { pageLink, pagePattern } from "../support/crawl.js";

const FROM = "http://127.0.0.1:8080/g/1:1/board";

describe("the crawl's idea of a page", () => {
  it("follows pages of the site, without their fragment", () => {
    assert.equal(pageLink("/g/1:1/board/1:5#c3", FROM)?.href, "http://127.0.0.1:8080/g/1:1/board/1:5");
    assert.equal(pageLink("/admin/audit?action=group.create", FROM)?.pathname, "/admin/audit");
    assert.equal(pageLink("/m/g/1:1/tasks", FROM)?.pathname, "/m/g/1:1/tasks");
  });

  it("leaves downloads, exports, feeds, static files, signing out and other sites", () => {
    for (const href of [
      "/download/1:1/2",
      "/admin/audit/export?format=csv",
      "/admin/audit/export?format=jsonl",
      "/g/1:1/tasks/export?state=COMPLETED",
      "/m/g/1:1/members/export",
      "/api/board/V2?group=1:1",
      "/static/app.css",
      "/m/static/app.css",
      "/signout",
      "https://example.com/g/1:1/board",
    ])
      assert.equal(pageLink(href, FROM), undefined, href);
    // A page whose name merely holds the word is still a page.
    assert.ok(pageLink("/g/1:1/board/exports-of-2024", FROM));
  });

  it("counts pages of one kind together", () => {
    assert.equal(pagePattern(new URL("http://h/g/1:2/board/1:9?page=3")), "/g/N:N/board/N:N?page=N");
  });
});
