/**
 * Text as PostgreSQL stores it. A `TEXT` value cannot hold a NUL byte (`\u0000`): the server
 * refuses it with "invalid byte sequence". Workspaces, users and request ids are harness- or
 * fixture-supplied strings that may hold one (a user's fixture, a generated invalid request id
 * that a mutant lets through), so the PostgreSQL worlds store every such string encoded: a
 * backslash doubled, a NUL as backslash-zero. The encoding is injective, so equality (keys,
 * `workspace_id = $1`) means on the stored text exactly what it means on the original, and
 * strings without either character are stored as they are.
 */

/** `text` as stored in a PostgreSQL `TEXT` column. */
export function toPgText(text: string): string {
  if (!text.includes('\\') && !text.includes('\u0000')) return text;
  return text.replace(/\\/g, '\\\\').replace(/\u0000/g, '\\0');
}

/** The original of a stored `toPgText` value. */
export function fromPgText(stored: string): string {
  if (!stored.includes('\\')) return stored;
  return stored.replace(/\\(\\|0)/g, (_, c: string) => (c === '0' ? '\u0000' : '\\'));
}

/** A receipt key (workspace, user, tool, request id) as stored: each part through `toPgText`. */
export function pgKey(
  key: readonly [string, string, string, string],
): [string, string, string, string] {
  return [toPgText(key[0]), toPgText(key[1]), toPgText(key[2]), toPgText(key[3])];
}
