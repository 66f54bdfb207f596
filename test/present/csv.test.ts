// The CSV writer the downloads share: RFC 4180 quoting, CRLF, formula injection defused; the audit
// log's CSV exactly as it was before the writer was shared; the list downloads' rows and names.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Task } from "../../src/domain/task.js";
import { auditCsv } from "../../src/present/audit-export.js";
import { UTF8_BOM, csvCell, csvText } from "../../src/present/csv.js";
import { listFileName, memberCsv, taskCsv, wallClockText } from "../../src/present/list-export.js";

const AUDIT_ROWS = [
  {
    id: 7,
    created_at: Date.UTC(2026, 10, 28, 1, 2, 3),
    action: "member.invite",
    outcome: "done" as const,
    actor_user_id: 3,
    actor_label: "山田 太郎",
    address: "192.0.2.1",
    target_kind: "membership",
    target_id: "12",
    target_label: '=cmd|"/c calc"!A1',
    group_id: 4,
    details: '{"email":"a,b@example.com"}',
  },
  {
    id: 6,
    created_at: Date.UTC(2026, 0, 1),
    action: "sign_in",
    outcome: "refused" as const,
    actor_user_id: null,
    actor_label: "-who\r\nnext",
    address: null,
    target_kind: null,
    target_id: null,
    target_label: "@SUM(1)",
    group_id: null,
    details: "{}",
  },
  {
    id: 5,
    created_at: 0,
    action: "x",
    outcome: "done" as const,
    actor_user_id: 1,
    actor_label: "+1\ttab",
    address: "\tlead",
    target_kind: "k",
    target_id: "\rcr",
    target_label: "plain",
    group_id: 2,
    details: '{"q":"say \\"hi\\""}',
  },
];

describe("the shared CSV writer", () => {
  it("writes the audit log's CSV byte for byte as before it was shared (no byte order mark)", () => {
    // The output of the audit export's own writer before this change, for the same rows.
    const before =
      "id,time,action,outcome,actor_user_id,actor,address,target_kind,target_id,target,group_id,details\r\n" +
      '7,2026-11-28T01:02:03.000Z,member.invite,done,3,山田 太郎,192.0.2.1,membership,12,"\'=cmd|""/c calc""!A1",4,"{""email"":""a,b@example.com""}"\r\n' +
      "6,2026-01-01T00:00:00.000Z,sign_in,refused,,\"'-who\r\nnext\",,,,'@SUM(1),,{}\r\n" +
      '5,1970-01-01T00:00:00.000Z,x,done,1,\'+1\ttab,\'\tlead,k,"\'\rcr",plain,2,"{""q"":""say \\""hi\\""""}"\r\n';
    assert.equal(auditCsv(AUDIT_ROWS), before);
  });

  it("defuses every cell a spreadsheet would run as a formula, and only those", () => {
    for (const lead of ["=", "+", "-", "@", "\t", "\r"]) assert.ok(csvCell(`${lead}1+1`).includes(`'${lead}1+1`), lead);
    assert.equal(csvCell("=1+1"), "'=1+1");
    assert.equal(csvCell("a=1"), "a=1", "only the first character counts");
    assert.equal(csvCell(" =1"), " =1");
    assert.equal(csvCell(-3), "-3", "a number is a number");
    assert.equal(csvCell(null), "");
    assert.equal(csvCell('say "hi", then go'), '"say ""hi"", then go"');
    assert.equal(csvCell("two\nlines"), '"two\nlines"');
  });

  it("ends every line with CRLF, and puts the byte order mark first only when asked", () => {
    assert.equal(csvText(["a", "b"], [[1, "x"]]), "a,b\r\n1,x\r\n");
    assert.equal(csvText(["a"], [], { bom: true }), `${UTF8_BOM}a\r\n`);
  });
});

describe("the list downloads", () => {
  const task: Task = {
    id: 9,
    groupId: 2,
    sequence: 1,
    title: '=HYPERLINK("http://evil")',
    body: "",
    authorId: 1,
    authorName: "佐藤",
    assigneeId: null,
    assigneeName: null,
    dueAt: Date.UTC(2026, 3, 1),
    allDay: true,
    priority: "S",
    status: "IN_PROGRESS",
    folderId: null,
    folderName: null,
    trashed: false,
    createdAt: Date.UTC(2026, 2, 31, 15, 30),
    updatedAt: 0,
  };

  it("writes a task's row in the documented order, times as the reader's wall clock", () => {
    const csv = taskCsv([task, { ...task, allDay: false, dueAt: Date.UTC(2026, 3, 1, 23, 5) }], {
      baseUrl: "https://kairan.example",
      zone: "Asia/Tokyo",
    });
    assert.equal(
      csv,
      `${UTF8_BOM}id,title,status,priority,assignee,due,created,creator,folder,url\r\n` +
        `"GROUP,1:2,TASK,1:9","'=HYPERLINK(""http://evil"")",IN_PROGRESS,S,,2026-04-01,2026-04-01 00:30,佐藤,,https://kairan.example/g/1:2/tasks/1:9\r\n` +
        `"GROUP,1:2,TASK,1:9","'=HYPERLINK(""http://evil"")",IN_PROGRESS,S,,2026-04-02 08:05,2026-04-01 00:30,佐藤,,https://kairan.example/g/1:2/tasks/1:9\r\n`,
    );
  });

  it("writes a member's row: reading family then given, an address only where there is one to show", () => {
    const csv = memberCsv(
      [
        {
          userId: 1,
          name: "山田 太郎",
          familyKana: "やまだ",
          givenKana: "たろう",
          email: "taro@example.com",
          manager: true,
          joinedAt: 0,
        },
        {
          userId: 2,
          name: "@bob",
          familyKana: "",
          givenKana: "",
          email: null,
          manager: false,
          joinedAt: Date.UTC(2026, 0, 1),
        },
      ],
      { zone: "UTC" },
    );
    assert.equal(
      csv,
      `${UTF8_BOM}name,reading,email,role,joined\r\n` +
        "山田 太郎,やまだ たろう,taro@example.com,manager,1970-01-01 00:00\r\n" +
        "'@bob,,,member,2026-01-01 00:00\r\n",
    );
  });

  it("names the file after the group, without what a file system refuses", () => {
    assert.equal(listFileName("営業部", "tasks"), "営業部-tasks.csv");
    assert.equal(listFileName('a/b\\c:d*e?f"g<h>i|j', "members"), "a_b_c_d_e_f_g_h_i_j-members.csv");
    assert.equal(listFileName("..", "tasks"), "group-tasks.csv");
    assert.equal(listFileName("x\u202ey\n", "tasks"), "x_y_-tasks.csv");
    assert.equal(listFileName("n".repeat(150), "tasks"), `${"n".repeat(100)}-tasks.csv`);
    assert.equal(wallClockText(Date.UTC(2026, 5, 30, 15, 0), "Asia/Tokyo"), "2026-07-01 00:00");
  });
});
