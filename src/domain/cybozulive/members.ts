// The member list: names, their readings and e-mail addresses, the only stable identifier in the
// whole export. Elsewhere people appear as "<姓> <名>" (one ASCII space), which is how a name is
// matched to a row here.
import type { Row } from "./header.js";

/** A member list row. */
export interface MemberRecord {
  /** "<姓> <名>", as the other files write the person. */
  readonly name: string;
  readonly familyKana: string;
  readonly givenKana: string;
  /** Lower case; "" when the row has none. */
  readonly email: string;
  readonly file: string;
  readonly line: number;
}

/** A member list row. @throws ImportFileError */
export function readMember(row: Row): MemberRecord {
  const family = row.required("familyName");
  const given = row.required("givenName");
  if (family === "" && given === "") throw row.error("familyName", "the member has no name");
  return {
    name: [family, given].filter((part) => part !== "").join(" "),
    familyKana: row.text("familyKana"),
    givenKana: row.text("givenKana"),
    email: row.required("email").toLowerCase(),
    file: row.file,
    line: row.line,
  };
}
