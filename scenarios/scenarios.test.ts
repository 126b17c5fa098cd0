/**
 * Every case file under scenarios/ (the article's cases, and any counterexample copied here) is
 * run against the handler it names (the reference when it names none), in its own mode (and, when
 * it holds a concurrent group, in both racing modes), and must agree with the model and keep the
 * promises written in it. The model alone must keep
 * those promises too, so the model is pinned to the article, not only handlers to the model.
 * The cases of other operations (`create-once/`, `adjust-balance/`, `transfer/`) run against that operation's
 * reference, and are also shown mutants they must catch.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { knownCaseOperation } from '../src/api/case-operation.ts';
import { listCaseFiles, loadCaseFile } from '../src/api/load-case-file.ts';
import { runCase } from '../src/api/run-case.ts';
import { checkModelAgainstCase } from '../src/check/expectations.ts';

const here = dirname(fileURLToPath(import.meta.url));
const files = listCaseFiles(here);

describe.each(files.map((path) => ({ path, c: loadCaseFile(path) })))('$c.name', ({ c }) => {
  it('the model keeps the promises written in the case', () => {
    // The case names its operation; the spec is resolved where the file is read.
    const spec = knownCaseOperation({
      source: c.name,
      handler: undefined,
      fixture: c.fixture,
      steps: c.steps,
    });
    expect(checkModelAgainstCase(c, spec)).toEqual([]);
  });

  // A case with a concurrent group also runs under the statement scheduler, where the race is
  // decided by the schedule rather than by the machine's timing.
  const racing = c.steps.some((s) => s.kind === 'concurrent');
  const modes = racing ? [...new Set([c.mode, 'concurrent', 'scheduled'] as const)] : [c.mode];
  it.each(modes)(`handler ${c.handler} agrees with the model (%s)`, async (mode) => {
    const result = await runCase(c, { mode });
    expect({ failures: result.failures, expectationFailures: result.expectationFailures }).toEqual({
      failures: [],
      expectationFailures: [],
    });
  });
});

describe('the article cases can fail', () => {
  it('catch a handler that checks the version before the receipt', async () => {
    const failing: string[] = [];
    for (const path of files.filter((f) => f.includes('/article/'))) {
      const result = await runCase(loadCaseFile(path), {
        handler: 'src/handlers/operations/set-interval/sqlite/mutants/version-before-receipt.ts',
        cwd: dirname(here),
      });
      if (result.verdict === 'failed') failing.push(loadCaseFile(path).name);
    }
    expect(failing).toEqual(
      expect.arrayContaining(['02-lost-response-replays', '03-replay-is-historical']),
    );
  });
});

describe.each([
  {
    folder: 'create-once',
    handler: 'create-once-receipt-after-insert',
    mode: undefined,
    catches: ['01-lost-response-replays', '02-replay-is-the-stored-invoice'],
  },
  {
    folder: 'create-once',
    handler: 'create-once-check-then-act',
    mode: 'scheduled' as const,
    catches: [
      '08-simultaneous-duplicates-share-one-invoice',
      '09-simultaneous-mismatch-one-winner',
    ],
  },
  {
    folder: 'adjust-balance',
    handler: 'adjust-balance-precondition-before-receipt',
    mode: undefined,
    catches: ['05-receipt-before-insufficient'],
  },
  {
    folder: 'adjust-balance',
    handler: 'adjust-balance-deferred-transaction',
    mode: 'scheduled' as const,
    catches: ['08-simultaneous-duplicates-share-one-result', '09-simultaneous-mismatch-one-winner'],
  },
  {
    folder: 'transfer',
    handler: 'transfer-credit-replayed',
    mode: undefined,
    catches: ['01-lost-response-moves-money-once', '08-simultaneous-duplicates-share-one-result'],
  },
  {
    folder: 'transfer',
    handler: 'transfer-legs-in-two-transactions',
    mode: undefined,
    catches: ['06-receipt-failure-rolls-back-both-legs'],
  },
  {
    folder: 'transfer',
    handler: 'transfer-payee-unchecked',
    mode: undefined,
    catches: ['04-both-accounts-in-the-callers-workspace'],
  },
  {
    folder: 'transfer',
    handler: 'transfer-fingerprint-without-payee',
    mode: undefined,
    catches: ['03-key-reuse-changes-nothing'],
  },
  {
    folder: 'transfer',
    handler: 'transfer-access-after-receipt',
    mode: undefined,
    catches: ['11-moved-or-deleted-account-never-replays'],
  },
  {
    folder: 'transfer',
    handler: 'transfer-lock-order',
    mode: 'scheduled' as const,
    catches: ['08-simultaneous-duplicates-share-one-result', '09-opposite-transfers-both-apply'],
  },
])('the $folder cases can fail', ({ folder, handler, mode, catches }) => {
  it(`catch ${handler}${mode ? ` (${mode})` : ''}`, async () => {
    const failing: string[] = [];
    for (const path of files.filter((f) => f.includes(`/${folder}/`))) {
      const c = loadCaseFile(path);
      if (mode && !c.steps.some((s) => s.kind === 'concurrent')) continue;
      const result = await runCase(c, { handler, ...(mode ? { mode } : {}) });
      if (result.verdict === 'failed') failing.push(c.name);
    }
    expect(failing).toEqual(expect.arrayContaining(catches));
  });
});
