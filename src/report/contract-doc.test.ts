/**
 * docs/contract.md is the page every failure cites: each rule number `ruleFor` can print must be
 * a numbered rule there about the outcome it decides, its citation table must say what the code
 * says, every invariant must be there under the name failures print, and no link in the README
 * or docs may leave the repository or point at nothing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INVARIANTS } from '../check/invariants/all-invariants.ts';
import { EFFECTS_MATCH_RECEIPTS } from '../check/invariants/effects-match-receipts.ts';
import { FRESH_ADVANCES_VERSION } from '../check/invariants/fresh-advances-version.ts';
import { RECEIPTS_COUNT_FRESH } from '../check/invariants/receipts-count-fresh.ts';
import { REPLAY_MATCHES_FRESH } from '../check/invariants/replay-matches-fresh.ts';
import { ROW_CHANGE_HAS_RECEIPT } from '../check/invariants/row-change-has-receipt.ts';
import type { InvalidField, Observed, RefusalReason } from '../model/outcome.ts';
import {
  type GrantKind,
  INJECTED_FAULT_CODE,
  INJECTED_FAULT_MESSAGE,
} from '../types/scheduled-trace.ts';
import { ruleFor } from './rule-for.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONTRACT = join(ROOT, 'docs', 'contract.md');
const RESULT = { id: 1, intervalMinutes: 30, version: 2 };

// Records keyed by every kind, reason and field: a new one fails to compile until it is listed.
const REFUSED: Record<RefusalReason, Observed> = {
  forbidden: { kind: 'refused', reason: 'forbidden' },
  unavailable: { kind: 'refused', reason: 'unavailable' },
  conflict: { kind: 'refused', reason: 'conflict' },
};
const INVALID: Record<InvalidField, Observed> = {
  requestId: { kind: 'invalid', field: 'requestId' },
  automationId: { kind: 'invalid', field: 'automationId' },
  expectedVersion: { kind: 'invalid', field: 'expectedVersion' },
  intervalMinutes: { kind: 'invalid', field: 'intervalMinutes' },
};
const BY_KIND: Record<Observed['kind'], readonly Observed[]> = {
  ok: [
    { kind: 'ok', result: RESULT, replayed: false },
    { kind: 'ok', result: RESULT, replayed: true },
  ],
  refused: Object.values(REFUSED),
  invalid: Object.values(INVALID),
  keyReuse: [{ kind: 'keyReuse' }],
  error: [{ kind: 'error', message: 'receipt store unavailable' }],
  unexpected: [{ kind: 'unexpected', message: 'boom' }],
  notSent: [{ kind: 'notSent' }],
};
/** Every distinct case `ruleFor` decides. */
const OUTCOMES = Object.values(BY_KIND).flat();

/** The word for an outcome that its rule must be about, and how the citation table writes it. */
function wordsOf(o: Observed): { keyword: string; tableCell: string } | undefined {
  switch (o.kind) {
    case 'ok': {
      const how = o.replayed ? 'replayed' : 'fresh';
      return { keyword: how, tableCell: `\`ok(${how}, …)\`` };
    }
    case 'refused':
      return { keyword: o.reason, tableCell: `\`refused(${o.reason})\`` };
    case 'invalid':
      return { keyword: o.field, tableCell: `\`invalid(${o.field})\`` };
    case 'keyReuse':
      return { keyword: 'keyReuse', tableCell: '`keyReuse`' };
    case 'error':
      return { keyword: 'error', tableCell: '`error(…)`' };
    default:
      return undefined;
  }
}

/** `7` → [7]; `9–11` (en dash, as printed) → [9, 10, 11]. */
function ruleNumbers(cited: string): number[] {
  const m = /^(\d+)(?:[–-](\d+))?$/.exec(cited);
  if (!m) throw new Error(`unreadable rule citation "${cited}"`);
  const from = Number(m[1]);
  const to = Number(m[2] ?? m[1]);
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** The body of the section under `heading`, up to the next heading of any level. */
function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const end = lines.findIndex((l, i) => i > start && l.startsWith('#'));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The numbered rules of a section: each `N. ` item at the start of a line, with its text. */
function numberedRules(body: string): Map<number, string> {
  const rules = new Map<number, string>();
  let current: number | undefined;
  for (const line of body.split('\n')) {
    const m = /^(\d+)\. /.exec(line);
    if (m) {
      current = Number(m[1]);
      if (rules.has(current)) throw new Error(`rule ${current} is numbered twice`);
      rules.set(current, line);
    } else if (current !== undefined) rules.set(current, `${rules.get(current)}\n${line}`);
  }
  return rules;
}

/** Rows of the markdown table in `body`, as trimmed cells (header and separator left out). */
function tableRows(body: string): string[][] {
  return body
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .slice(2)
    .map((l) =>
      l
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim()),
    );
}

/** Markdown without its fenced code blocks: a heading or link there is neither. */
function withoutCodeBlocks(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** Markdown with fenced blocks and inline code removed: links there are not links. */
function withoutCode(markdown: string): string {
  return withoutCodeBlocks(markdown).replace(/`[^`\n]*`/g, '');
}

/** Every link target in a markdown file: inline `[text](target)` and `[label]: target`. */
function linkTargets(markdown: string): string[] {
  const text = withoutCode(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)];
  const defined = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)];
  return [...inline, ...defined].map((m) => m[1] as string);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of every heading in a markdown file. */
function anchorsIn(file: string): Set<string> {
  const text = withoutCodeBlocks(readFileSync(file, 'utf8'));
  return new Set([...text.matchAll(/^#{1,6} +(.+?) *#*$/gm)].map((m) => anchorOf(m[1] as string)));
}

/** What is wrong with one link target in `file`, or undefined when it resolves in the repo. */
function linkProblem(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:
  const [path = '', anchor] = target.split('#');
  if (path.startsWith('/')) return 'absolute path: use a path relative to the file';
  const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
  const inRepo = relative(ROOT, resolved);
  if (inRepo.startsWith('..') || isAbsolute(inRepo)) return 'leaves the repository';
  if (!existsSync(resolved)) return 'no such file';
  if (anchor && resolved.endsWith('.md') && !anchorsIn(resolved).has(anchor))
    return `no heading with anchor #${anchor}`;
  return undefined;
}

describe('docs/contract.md, the rules failures cite', () => {
  const page = readFileSync(CONTRACT, 'utf8');
  const rules = numberedRules(section(page, '## The rules of one call'));

  it('numbers its rules 1, 2, 3, … with no gap', () => {
    expect([...rules.keys()]).toEqual(Array.from({ length: rules.size }, (_, i) => i + 1));
  });

  it('has every rule the code cites, about the outcome it is cited for', () => {
    for (const o of OUTCOMES) {
      const cited = ruleFor(o).rule;
      const words = wordsOf(o);
      if (cited === undefined) {
        expect(words, `${o.kind} is cited without a rule number`).toBeUndefined();
        continue;
      }
      if (!words) throw new Error(`${o.kind} cites rule ${cited}: give it a word in this test`);
      const texts = ruleNumbers(cited).map((n) => {
        const text = rules.get(n);
        expect(text, `rule ${n} (cited for ${o.kind}) is not a numbered rule`).toBeDefined();
        return text ?? '';
      });
      expect(
        texts.some((t) => t.includes(words.keyword)),
        `rule ${cited} is cited for ${words.tableCell} but its text never says "${words.keyword}"`,
      ).toBe(true);
    }
  });

  it('cites each outcome in its table exactly as the code does', () => {
    const rows = tableRows(section(page, '### How failures cite the rules'));
    for (const o of OUTCOMES) {
      const words = wordsOf(o);
      const cited = ruleFor(o).rule;
      if (!words || cited === undefined) continue;
      const row = rows.find((r) => r[0]?.split(' or ').includes(words.tableCell));
      expect(row, `no row for ${words.tableCell}`).toBeDefined();
      const plural = ruleNumbers(cited).length > 1 ? 'rules' : 'rule';
      expect(row?.[1], `${words.tableCell}`).toBe(`${plural} ${cited}`);
    }
  });

  it('names every invariant as failures print it', () => {
    const names = [
      FRESH_ADVANCES_VERSION,
      RECEIPTS_COUNT_FRESH,
      ROW_CHANGE_HAS_RECEIPT,
      EFFECTS_MATCH_RECEIPTS,
      REPLAY_MATCHES_FRESH,
    ];
    expect(names).toHaveLength(INVARIANTS.length);
    const body = section(page, '## Invariants');
    for (const name of names) expect(body).toContain(`- **${name}**`);
  });
});

describe('the faults receiptcheck injects, as docs/cli.md and the contract list them', () => {
  const contract = section(readFileSync(CONTRACT, 'utf8'), '## Faults receiptcheck injects');
  const cli = section(
    readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8'),
    '## Faults receiptcheck injects',
  );
  /** Every grant that injects something: a key of this record per kind, or it fails to compile. */
  const INJECTING: Record<Exclude<GrantKind, 'run' | 'giveUp'>, string> = {
    fault: 'statement fault',
    crash: 'crash',
  };

  it.each([
    ['docs/contract.md', contract],
    ['docs/cli.md', cli],
  ])('%s has a row for each, with the modes and the expected outcome', (_, body) => {
    const rows = tableRows(body);
    const names = [...Object.values(INJECTING), 'receipt store failure', 'lost request'];
    for (const name of names) {
      const row = rows.find((r) => r[0]?.includes(name));
      expect(row, `no row for ${name}`).toBeDefined();
      const scheduledOnly = (Object.values(INJECTING) as string[]).includes(name);
      expect(row?.[1]).toEqual(scheduledOnly ? 'scheduled' : expect.stringContaining('every mode'));
    }
  });

  it('names the code and message the statement fault really raises', () => {
    const prefix = INJECTED_FAULT_MESSAGE.split(' (')[0] as string;
    const statementFault = section(readFileSync(CONTRACT, 'utf8'), '### Statement fault');
    for (const body of [statementFault, cli]) {
      expect(body).toContain(`\`${INJECTED_FAULT_CODE}\``);
      expect(body).toContain(`\`${prefix}\``);
    }
  });
});

describe('links in the README and docs', () => {
  const files = [
    join(ROOT, 'README.md'),
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(ROOT, 'docs', f)),
  ];

  it('stay inside the repository and point at something', () => {
    const problems = files.flatMap((file) =>
      linkTargets(readFileSync(file, 'utf8')).flatMap((target) => {
        const problem = linkProblem(file, target);
        return problem ? [`${relative(ROOT, file)}: (${target}) ${problem}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('cite only rule numbers the contract has', () => {
    const rules = numberedRules(
      section(readFileSync(CONTRACT, 'utf8'), '## The rules of one call'),
    );
    for (const file of files) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\brules? (\d+)(?:[–-](\d+))?/gi)) {
        for (const n of [Number(m[1]), Number(m[2] ?? m[1])])
          expect(rules.has(n), `${relative(ROOT, file)}: "${m[0]}"`).toBe(true);
      }
    }
  });

  it('the checker rejects a link out of the repository, a missing file and a missing anchor', () => {
    const readme = join(ROOT, 'README.md');
    expect(linkProblem(readme, '../shared/CONTRACT.md')).toBe('leaves the repository');
    expect(linkProblem(readme, 'docs/no-such-page.md')).toBe('no such file');
    expect(linkProblem(readme, 'docs/contract.md#no-such-heading')).toMatch(/no heading/);
    expect(linkProblem(readme, 'docs/contract.md#invariants')).toBeUndefined();
    expect(linkProblem(readme, 'https://example.com/x')).toBeUndefined();
  });
});
