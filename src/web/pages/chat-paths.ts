// The addresses of chat pages: the room's page (the address every feed links a room to) and its key.
import { pageNotFound } from "../page.js";

const ROOM_KEY = /^1#([1-9][0-9]{0,14})$/;

/** `1#n` (a form's or query's `chatRoomId`) -> n. @throws NotFoundError */
export function roomOfKey(key: string | undefined): number {
  const match = ROOM_KEY.exec((key ?? "").trim());
  if (match === null) throw pageNotFound();
  return Number(match[1]);
}

/** The room's page, as every feed links it. */
export function roomPath(roomId: number): string {
  return `/mpChat/view?chatRoomId=1%23${roomId}`;
}
