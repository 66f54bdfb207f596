import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { MemberRecord } from "../../../src/domain/cybozulive/members.js";
import { WITHDRAWN, normalName, resolvePeople } from "../../../src/domain/cybozulive/people.js";

const member = (name: string, email: string): MemberRecord => ({
  name,
  familyKana: "かな",
  givenKana: "",
  email,
  file: "m.csv",
  line: 2,
});

describe("resolvePeople", () => {
  const members = [
    member("鈴木 花子", "hanako@example.com"),
    member("Taro Sato", "taro@example.com"),
    member("田中 一郎", "tanaka1@example.com"),
    member("田中 一郎", "tanaka2@example.com"),
    member("No Mail", ""),
  ];
  const accounts = [
    { id: 1, name: "Hanako Suzuki (new name)", email: "HANAKO@example.com" },
    { id: 2, name: "Ken", email: "ken@example.com" },
    { id: 3, name: "Twin", email: "twin1@example.com" },
    { id: 4, name: "Twin", email: "twin2@example.com" },
    { id: 5, name: "No Mail", email: "nomail@example.com" },
  ];
  const resolved = resolvePeople(
    ["鈴木 花子", "Taro Sato", "田中 一郎", "Ken", "Twin", "Nobody", WITHDRAWN, "No Mail"],
    members,
    accounts,
  );
  const kind = (name: string) => {
    const r = resolved.get(name);
    return r?.kind === "account" ? `account ${r.userId} by ${r.via}` : `${r?.reason} ${r?.email}`;
  };

  it("matches by the member list's address first, whatever the account's name", () => {
    assert.equal(kind("鈴木 花子"), "account 1 by email");
  });

  it("keeps the address of a member without an account for their placeholder", () => {
    assert.equal(kind("Taro Sato"), "no-account taro@example.com");
  });

  it("calls a name with two addresses ambiguous", () => {
    assert.equal(kind("田中 一郎"), "ambiguous null");
  });

  it("matches by name when exactly one account has it, and not when two do", () => {
    assert.equal(kind("Ken"), "account 2 by name");
    assert.equal(kind("No Mail"), "account 5 by name");
    assert.equal(kind("Twin"), "ambiguous null");
  });

  it("leaves unknown people and people who left as placeholders", () => {
    assert.equal(kind("Nobody"), "unmatched null");
    assert.equal(kind(WITHDRAWN), "withdrawn null");
  });

  it("compares names with spaces trimmed and runs of spaces (and full-width ones) as one", () => {
    assert.equal(normalName("  鈴木\u3000 花子 "), "鈴木 花子");
  });
});
