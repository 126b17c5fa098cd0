/**
 * A description's SQL names its parameters as SQLite does, `:name`; PostgreSQL numbers them,
 * `$1`. `toPositional` rewrites one statement's names as numbers (a name used twice gets one
 * number), leaving alone what only looks like a name: a cast (`::int`), and anything inside a
 * string, a quoted identifier, a dollar-quoted body or a comment. Pure, so the engine-neutral
 * description keeps one spelling for both engines.
 */

/** A statement with numbered parameters, and the name each number stands for. */
export interface PositionalSql {
  readonly text: string;
  /** `names[i]` is the name `$(i + 1)` replaced. */
  readonly names: readonly string[];
}

const NAME_START = /[A-Za-z_]/;
const NAME_PART = /[A-Za-z0-9_]/;

/** `sql` with each `:name` replaced by `$n`. */
export function toPositional(sql: string): PositionalSql {
  const names: string[] = [];
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const skipped = skipQuoted(sql, i);
    if (skipped > i) {
      out += sql.slice(i, skipped);
      i = skipped;
      continue;
    }
    const c = sql[i] as string;
    if (c === ':' && sql[i + 1] === ':') {
      out += '::';
      i += 2;
      continue;
    }
    if (c === ':' && NAME_START.test(sql[i + 1] ?? '')) {
      let end = i + 2;
      while (end < sql.length && NAME_PART.test(sql[end] as string)) end++;
      const name = sql.slice(i + 1, end);
      let n = names.indexOf(name);
      if (n < 0) n = names.push(name) - 1;
      out += `$${n + 1}`;
      i = end;
      continue;
    }
    out += c;
    i++;
  }
  return { text: out, names };
}

/** The values for `names`, from `params`; throws naming a parameter `params` lacks. */
export function valuesFor(
  names: readonly string[],
  params: Readonly<Record<string, unknown>>,
  what: string,
): unknown[] {
  return names.map((name) => {
    if (!(name in params))
      throw new Error(
        `${what} names :${name}, which it is not given (it has ${Object.keys(params)
          .map((k) => `:${k}`)
          .join(', ')})`,
      );
    return params[name];
  });
}

/** The index after the quoted span, string or comment starting at `i`, or `i` when none starts there. */
function skipQuoted(sql: string, i: number): number {
  const c = sql[i];
  if (c === "'" || c === '"') {
    // A doubled quote inside is the quote itself, and the span goes on.
    let j = i + 1;
    while (j < sql.length) {
      if (sql[j] === c) {
        if (sql[j + 1] === c) j += 2;
        else return j + 1;
      } else j++;
    }
    return sql.length;
  }
  if (c === '-' && sql[i + 1] === '-') {
    const end = sql.indexOf('\n', i);
    return end < 0 ? sql.length : end + 1;
  }
  if (c === '/' && sql[i + 1] === '*') {
    const end = sql.indexOf('*/', i + 2);
    return end < 0 ? sql.length : end + 2;
  }
  if (c === '$') {
    const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
    if (tag) {
      const end = sql.indexOf(tag[0], i + tag[0].length);
      return end < 0 ? sql.length : end + tag[0].length;
    }
  }
  return i;
}
