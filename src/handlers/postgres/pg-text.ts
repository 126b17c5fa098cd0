/**
 * Text as PostgreSQL stores it. A `TEXT` value cannot hold a NUL byte (`\u0000`): the server
 * refuses it with "invalid byte sequence". Workspaces, users and request ids are harness- or
 * fixture-supplied strings that may hold one (a user's fixture, a generated invalid request id
 * that a mutant lets through), so the PostgreSQL worlds store every such string encoded: a
 * backslash doubled, a NUL as backslash-zero. The encoding is injective, so equality (keys,
 * `workspace_id = $1`) means on the stored text exactly what it means on the original, and
 * strings without either character are stored as they are.
 */

const NUL = String.fromCharCode(0);

/** `text` as stored in a PostgreSQL `TEXT` column. */
export function toPgText(text: string): string {
  if (!text.includes('\\') && !text.includes(NUL)) return text;
  return text.split('\\').join('\\\\').split(NUL).join('\\0');
}

/** The original of a stored `toPgText` value. */
export function fromPgText(stored: string): string {
  if (!stored.includes('\\')) return stored;
  let out = '';
  for (let i = 0; i < stored.length; i++) {
    const c = stored[i];
    if (c !== '\\') out += c;
    else out += stored[++i] === '0' ? NUL : '\\';
  }
  return out;
}

/** A receipt key (workspace, user, tool, request id) as stored: each part through `toPgText`. */
export function pgKey(
  key: readonly [string, string, string, string],
): [string, string, string, string] {
  return [toPgText(key[0]), toPgText(key[1]), toPgText(key[2]), toPgText(key[3])];
}
