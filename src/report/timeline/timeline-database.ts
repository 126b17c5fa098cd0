/**
 * The database at the end, expected against found: every row or receipt that differs (with both
 * sides in full), or what a case file promises when nothing ran. Pure.
 */
import type { CaseFile } from '../../types/case-file.ts';
import type { Failure } from '../../types/verdict.ts';
import { encodeJson } from '../encode.ts';
import { readableKey } from '../explain-failure.ts';
import { formatDatabase } from '../format-counterexample.ts';
import type { DatabaseRow, TimelineDatabase } from './timeline.ts';

/** The database section, from a run's failures, or from a file's `expectFinal` when nothing ran. */
export function timelineDatabase(
  failures: readonly Failure[],
  ran: boolean,
  expectFinal?: CaseFile['expectFinal'],
): TimelineDatabase {
  if (!ran) {
    const rows: DatabaseRow[] = Object.entries(expectFinal ?? {}).flatMap(([table, value]) =>
      Array.isArray(value)
        ? value.map((row) => ({
            what: table,
            key: String((row as { id?: unknown }).id ?? ''),
            expected: encodeJson(row),
          }))
        : value === undefined
          ? []
          : [{ what: table, key: 'count', expected: String(value) }],
    );
    return {
      summary: rows.length > 0 ? 'not run: what the file expects at the end' : 'not run',
      rows,
    };
  }
  const summary = formatDatabase(failures).map((l) => l.trim());
  const diff = failures.find((f) => f.kind === 'snapshot');
  if (diff?.kind !== 'snapshot') return { summary: summary.join(' '), rows: [] };
  return {
    summary: summary.join('\n'),
    rows: diff.differences.map((d) =>
      'key' in d
        ? {
            what: 'receipt',
            key: readableKey(d.key),
            ...(d.expected ? { expected: encodeJson(d.expected) } : {}),
            ...(d.actual ? { found: encodeJson(d.actual) } : {}),
          }
        : {
            what: d.what,
            key: String(d.id),
            ...(d.expected ? { expected: encodeJson(d.expected) } : {}),
            ...(d.actual ? { found: encodeJson(d.actual) } : {}),
          },
    ),
  };
}
