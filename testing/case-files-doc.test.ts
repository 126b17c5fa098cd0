/**
 * docs/case-files.md's hand-written scheduled case, run as the page says: it holds on the
 * reference and is reproduced on the mutant it names, through the page's own `replay` commands;
 * and loading refuses each malformed variant of its scheduled parts in one line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCase } from '../src/api/run-case.ts';
import { runCli } from '../src/cli/run-cli.ts';
import { isReceiptcheckError } from '../src/errors.ts';
import { parseCaseFile } from '../src/report/case-file.ts';
import { decodeJson } from '../src/report/encode.ts';
import { commandsOf, docBlock } from './doc-blocks.ts';

const CASE = docBlock('docs/case-files.md › A hand-written scheduled case');
const COMMANDS = docBlock('docs/case-files.md › A hand-written scheduled case #2');

const tmp = mkdtempSync(join(tmpdir(), 'receiptcheck-case-doc-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const file = join(tmp, 'crash-fault-race.json');
writeFileSync(file, CASE.text);

describe("docs/case-files.md's hand-written scheduled case", () => {
  it('holds on the reference, its crash, fault and race all taking place', async () => {
    const r = await runCase(parseCaseFile(CASE.text, 'doc'));
    expect(r.failures).toEqual([]);
    expect(r.expectationFailures).toEqual([]);
    const lanes = (r.detail as { lanes: string }).lanes;
    expect(lanes).toContain('[CRASH] before COMMIT');
    expect(lanes).toMatch(/\[FAULT SQLITE_CONSTRAINT_TRIGGER\] INSERT/);
  });

  it('fails on the mutant that writes its receipt after the commit', async () => {
    const r = await runCase(parseCaseFile(CASE.text, 'doc'), { handler: 'receipt-after-commit' });
    expect(r.verdict).toBe('failed');
    expect(r.expectationFailures.map((f) => f.message)).toContain(
      'step 2: expected ok(fresh, id 1 interval 30 v2), got refused(conflict)',
    );
  });

  it.each(commandsOf(COMMANDS).map((command) => ({ command })))(
    '`$command` exits as its comment says',
    async ({ command }) => {
      const line = COMMANDS.text.split('\n').find((l) => l.includes(command)) ?? '';
      const exits = Number(/# exits (\d)/.exec(line)?.[1]);
      const args = command.replace(/^npx receiptcheck /, '').split(/\s+/);
      const r = await runCli(...args.map((a) => (a === 'crash-fault-race.json' ? file : a)));
      expect(r.code, r.out + r.err).toBe(exits);
    },
  );
});

/** The example's JSON, to edit. */
type Raw = { steps: unknown[]; schedule: unknown; detail?: unknown };
/** Schedule entry `i` of `c`. */
const entry = (c: Raw, i: number) =>
  (c.schedule as Record<string, unknown>[])[i] as Record<string, unknown>;
/** The lanes of group step `i` of `c`. */
const lanesOf = (c: Raw, i: number) => (c.steps[i] as { events: unknown[] }).events;

/** The example with `edit` applied to its parsed JSON, loaded: the one-line refusal. */
function refusal(edit: (c: Raw) => void): string {
  const c = decodeJson(CASE.text) as Raw;
  edit(c);
  try {
    parseCaseFile(JSON.stringify(c), 'case.json');
  } catch (thrown) {
    if (isReceiptcheckError(thrown) && thrown.code === 'E_BAD_SCENARIO') return thrown.message;
    throw thrown;
  }
  throw new Error('accepted');
}

describe('hand-written scheduled parts that loading refuses', () => {
  it.each([
    [
      'a schedule that is not a list',
      (c: Raw) => {
        c.schedule = {};
      },
      'case.json has a malformed "schedule": the schedule must be an array of step entries',
    ],
    [
      'choices that are not whole numbers',
      (c: Raw) => {
        entry(c, 3).choices = [-1];
      },
      'case.json has a malformed "schedule": schedule entry 4: "choices" must be a list of non-negative integers',
    ],
    [
      'a crash without its point',
      (c: Raw) => {
        entry(c, 0).crash = { lane: 0 };
      },
      'case.json has a malformed "schedule": schedule entry 1: "crash" must be {lane, at} with non-negative integers',
    ],
    [
      'more entries than steps',
      (c: Raw) => {
        (c.schedule as unknown[]).push({ choices: [] });
      },
      'case.json has 5 "schedule" entries for 4 step(s): one entry per step, in step order',
    ],
    [
      'a misspelt entry field',
      (c: Raw) => {
        entry(c, 1).crsah = { lane: 0, at: 1 };
      },
      'case.json "schedule" entry 2 has unknown field "crsah" (allowed: choices, crash, fault)',
    ],
    [
      'a misspelt point field',
      (c: Raw) => {
        entry(c, 2).fault = { lane: 0, at: 1, statement: 2 };
      },
      'case.json "schedule" entry 3: "fault" has unknown field "statement" (allowed: lane, at)',
    ],
    [
      'a lane a plain step does not have',
      (c: Raw) => {
        entry(c, 0).crash = { lane: 1, at: 6 };
      },
      'case.json "schedule" entry 1: "crash" names lane 1, but step 1 has only lane 0 (lanes count from 0)',
    ],
    [
      'a lane past the group',
      (c: Raw) => {
        entry(c, 3).fault = { lane: 2, at: 0 };
      },
      'case.json "schedule" entry 4: "fault" names lane 2, but step 4 has lanes 0 to 1 (lanes count from 0)',
    ],
    [
      'a lane that is no call',
      (c: Raw) => {
        lanesOf(c, 3)[1] = { kind: 'storeFail' };
        entry(c, 3).crash = { lane: 1, at: 1 };
      },
      'case.json "schedule" entry 4: "crash" names lane 1 of step 4, which is a storeFail event, not a call',
    ],
  ])('%s', (_what, edit, message) => {
    expect(refusal(edit)).toBe(message);
  });

  it('a saved counterexample with a malformed detail.schedule', () => {
    const m = refusal((c: Raw) => {
      c.detail = { schedule: [{ choices: 'x' }] };
    });
    expect(m).toBe(
      'case.json has a malformed "detail.schedule": schedule entry 1: "choices" must be a list of non-negative integers',
    );
  });
});
