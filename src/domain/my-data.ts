// The rules of the download of one's own data: how an uploaded file's name becomes a path of the
// zip that is safe wherever it is unpacked (no way out of the folder, no name a system refuses).

/** The longest name of one path segment, in characters (most file systems take 255 bytes). */
export const SAFE_NAME_MAX = 120;

/**
 * A name safe as one path segment of a zip on every system: no separators, no `..` or leading
 * dots, no control or reserved characters (Windows), not empty, not too long (the extension kept).
 */
export function safeName(name: string): string {
  let safe = name
    .normalize("NFC")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, "_")
    .replace(/^[.\s]+/, "")
    .replace(/[.\s]+$/, "");
  if (/^(?:con|prn|aux|nul|com\d|lpt\d)(?:\..*)?$/i.test(safe)) safe = `_${safe}`;
  if (safe === "") return "_";
  const chars = [...safe];
  if (chars.length <= SAFE_NAME_MAX) return safe;
  const dot = safe.lastIndexOf(".");
  const extension = dot > 0 && safe.length - dot <= 10 ? safe.slice(dot) : "";
  return chars.slice(0, SAFE_NAME_MAX - [...extension].length).join("") + extension;
}

/**
 * `dir/name`, or `dir/stem (2).ext` and on when an earlier path of `used` took it (compared
 * ignoring letter case, as some systems do); the path returned is added to `used`.
 */
export function uniquePath(used: Set<string>, dir: string, name: string): string {
  const dot = name.lastIndexOf(".");
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  for (let n = 1; ; n++) {
    const path = `${dir}/${n === 1 ? name : `${stem} (${n})${extension}`}`;
    if (used.has(path.toLowerCase())) continue;
    used.add(path.toLowerCase());
    return path;
  }
}
