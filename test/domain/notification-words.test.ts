import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { eventNameOf, taskChangeOf } from "../../src/domain/notification.js";

describe("what a task's update is called in its notification", () => {
  const open = { status: "IN_PROGRESS", assigneeId: 1 };
  const done = { status: "COMPLETED", assigneeId: 1 };

  it("names finishing, taking up again and a new assignee", () => {
    assert.equal(taskChangeOf(open, { status: "COMPLETED" }), "completed");
    assert.equal(taskChangeOf(done, { status: "NOT_STARTED" }), "reopened");
    assert.equal(taskChangeOf(open, { assigneeId: 2 }), "assigned");
  });

  it("lets a status change win over a new assignee made at the same time", () => {
    assert.equal(taskChangeOf(open, { status: "COMPLETED", assigneeId: 2 }), "completed");
  });

  it("has no name for other changes: a status between open ones, the same assignee, no assignee", () => {
    assert.equal(taskChangeOf(open, { status: "ON_HOLD" }), undefined);
    assert.equal(taskChangeOf(open, { assigneeId: 1 }), undefined);
    assert.equal(taskChangeOf(open, { assigneeId: null }), undefined);
    assert.equal(taskChangeOf(open, {}), undefined);
  });

  it("stores a named update under its name and everything else under its kind", () => {
    assert.equal(eventNameOf({ kind: "updated", bodyChanged: false, change: "version" }), "version");
    assert.equal(eventNameOf({ kind: "updated", bodyChanged: true }), "updated");
    assert.equal(eventNameOf({ kind: "comment", number: 3 }), "comment");
  });
});
