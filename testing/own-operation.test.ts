/**
 * The README's "Check your own tool", run as a user would run it: its operation spec and plugin
 * (`my-operation.ts`, `my-tool-handler.ts`, importing only `receiptcheck`) written into a fresh
 * project (type-checked with the other examples, `doc-examples.test.ts`), checked through the
 * public API and in every mode through the commands of its first `sh` block; then the planted bug (its `diff` block) applied, found by the
 * next block's run, which prints what the `text` block shows, and reproduced by its replay; and
 * the fix replayed as held. Timing plays no part: the bug is found in sequential mode.
 */
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DocBlock, docBlock } from './doc-blocks.ts';
import { ownOperationFiles } from './doc-examples.ts';
import { expectPasses, makeProject, outcomeOf, receiptcheck, tempFolder } from './user-project.ts';

const SPEC = 'my-operation.ts';
const PLUGIN = 'my-tool-handler.ts';

/** The README's two files, importing this checkout for `receiptcheck`; `edit` changes the plugin. */
function userFiles(edit?: (plugin: string) => string): Record<string, string> {
  const files = ownOperationFiles(edit);
  if (!(SPEC in files && PLUGIN in files)) throw new Error(`the example is ${SPEC} and ${PLUGIN}`);
  return files;
}

/** A `diff` block applied to `text`: its context and `-` lines must occur exactly once. */
function applyDiff(diff: DocBlock, text: string): string {
  const lines = diff.text.trimEnd().split('\n');
  const side = (keep: string) =>
    lines
      .filter((l) => keep.includes(l.charAt(0)))
      .map((l) => `${l.slice(1)}\n`)
      .join('');
  const [before, after] = [side(' -'), side(' +')];
  if (text.split(before).length !== 2) throw new Error(`the diff does not apply once:\n${before}`);
  return text.replace(before, () => after);
}

/** A shell block's commands, each with the exit its `# exits N` comment promises. */
function promisedExits(block: DocBlock): { args: string[]; exit: number }[] {
  return block.text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const m = /^npx receiptcheck (.+?)\s+# exits (\d+)/.exec(l);
      if (!m) throw new Error(`\`${l}\` is not \`npx receiptcheck … # exits N\``);
      return { args: (m[1] ?? '').split(/\s+/), exit: Number(m[2]) };
    });
}

const temp = tempFolder('receiptcheck-own-');
const project = () => join(temp(), 'project');
beforeAll(() => makeProject(project(), userFiles()));

describe("the README's own operation", () => {
  // Every mode's pass is the sh block's business below; through the API, what is checked is that
  // the spec's own field reaches the handler with the values its rule declares (generation is the
  // same in every mode).
  it('passes through checkHandler, sending the custom field its own values', async () => {
    const result = await expectPasses(join(project(), PLUGIN), 'sequential', 100);
    expect(result.inputCoverage['title declared invalid']).toBeGreaterThan(0);
  });

  it('every command of its first sh block exits as the block says', () => {
    const commands = promisedExits(docBlock('README.md › Check your own tool'));
    expect(commands.map((c) => c.args.at(-1))).toEqual(['sequential', 'scheduled', 'concurrent']);
    for (const { args, exit } of commands) {
      const r = receiptcheck(project(), args);
      expect(r.status, outcomeOf(r)).toBe(exit);
      expect(r.stdout).toContain('PASSED');
    }
  });
});

/**
 * The planted bug's project, and the run of the block that finds it: one run, which the planted
 * bug's test reads and whose saved case the later tests draw, run and move.
 */
const planted = () => join(temp(), 'planted');
const CASE = 'counterexamples/my-tool-sequential-seed42.json';
let found: ReturnType<typeof receiptcheck> | undefined;
let replayArgs: string[] = [];
beforeAll(() => {
  makeProject(
    planted(),
    userFiles((plugin) => applyDiff(docBlock('README.md › Plant a bug'), plugin)),
  );
  const [run, replay, ...rest] = promisedExits(docBlock('README.md › Plant a bug #2'));
  expect(rest).toEqual([]);
  if (!run || !replay) throw new Error('the block lists a run and a replay');
  expect([run.exit, replay.exit]).toEqual([1, 1]);
  expect(replay.args).toEqual(['replay', CASE]);
  replayArgs = replay.args;
  found = receiptcheck(planted(), run.args);
});

describe("the README's planted bug", () => {
  it('is found in sequential mode, in the tool’s own terms, and its replay reproduces it', () => {
    if (!found) throw new Error('the planted run is made in beforeAll');
    expect(found.status, outcomeOf(found)).toBe(1);
    // Which document the shrunk case renames depends on the seed's draw; what matters is that the
    // step is told in the operation's own fields, the retry of a first-try rename.
    expect(found.stdout).toMatch(
      /retries r0: rename-document documentId \d+, expectedVersion 1, title "Q3 plan"/,
    );
    expect(found.stdout).toContain('actual   refused(conflict)');
    // What the README shows it prints, from the steps to the database (no counts, no times).
    const shown = docBlock('README.md › Plant a bug #3').text;
    const meaning = shown.slice(shown.indexOf('Steps:'), shown.indexOf('Reproduce:'));
    expect(meaning).toContain('What broke:');
    expect(found.stdout).toContain(meaning);

    const reproduced = receiptcheck(planted(), replayArgs);
    expect(reproduced.status, outcomeOf(reproduced)).toBe(1);
    expect(reproduced.stdout).toContain('reproduced');

    // "Fix the line and `replay` says `held`": the fixed plugin beside a copy of the case, so the
    // planted project keeps its bug for the saved case's tests.
    const fixed = join(temp(), 'fixed');
    makeProject(fixed, userFiles());
    cpSync(join(planted(), 'counterexamples'), join(fixed, 'counterexamples'), {
      recursive: true,
    });
    const held = receiptcheck(fixed, replayArgs);
    expect(held.status, outcomeOf(held)).toBe(0);
    expect(held.stdout).toContain('held');
  });
});

describe("a saved case of the README's own operation", () => {
  it('is drawn by report, in the operation’s own words', () => {
    const r = receiptcheck(planted(), ['report', CASE, '--out', 'page.html']);
    expect(r.status, outcomeOf(r)).toBe(0);
    expect(readFileSync(join(planted(), 'page.html'), 'utf8')).toMatch(
      /rename-document documentId \d+/,
    );
  });

  it('is run by scenarios against the plugin it names: it fails again', () => {
    const r = receiptcheck(planted(), ['scenarios', '--dir', 'counterexamples']);
    expect(r.status, outcomeOf(r)).toBe(1);
    expect(r.stdout).toContain('actual   refused(conflict)');
    expect(r.stdout).toContain('0 of 1 case files passed');
  });

  it('from a folder where its plugin is not: one line saying so, exit 2, from replay, report and scenarios', () => {
    const elsewhere = join(temp(), 'elsewhere');
    if (!existsSync(elsewhere)) mkdirSync(elsewhere);
    const file = join(planted(), CASE);
    for (const args of [
      ['replay', file],
      ['report', file, '--out', join(elsewhere, 'page.html')],
      ['scenarios', '--dir', join(planted(), 'counterexamples')],
    ]) {
      const r = receiptcheck(elsewhere, args);
      expect(r.status, outcomeOf(r)).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(
        `is a case of "rename-document", an operation its plugin declares, and that plugin, "./${PLUGIN}", is not there (looked at ${join(elsewhere, PLUGIN)})`,
      );
    }
    // Named by hand, the plugin loads and the case is read again.
    const page = receiptcheck(elsewhere, [
      'report',
      file,
      '--handler',
      join(planted(), PLUGIN),
      '--out',
      join(elsewhere, 'page.html'),
    ]);
    expect(page.status, outcomeOf(page)).toBe(0);
  });
});
