/**
 * Every failure report ends with one line saying what the user can change if they believe the
 * handler is right: `run` (a contract rule no switch changes: version-before-receipt's retry),
 * `replay` (a library answering a stored key after a move: policy.idempotencyFirst, also as data
 * under --json) and `report`, which prints it under the page's path and draws it on the page.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeJson } from '../report/encode.ts';
import { EXIT } from './exit-codes.ts';
import { runCli as cli } from './run-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'receiptcheck-triage-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);
const CONTRACT =
  'If you believe the handler is right: no policy switch explains this failure; rule 7 in docs/contract.md says what the contract asks and why.';
const IDEMPOTENCY_FIRST =
  'If you believe the handler is right: if your library answers stored keys (and claims new ones) before checking access, declare policy.idempotencyFirst: true in its plugin (docs/contract.md, Declared policies).';

describe('the triage line', () => {
  it('ends the text of a failed run, and of report on the case it saved (and its page)', async () => {
    const out = join(tmp, 'cx');
    const r = await cli(
      'run',
      '--handler',
      'version-before-receipt',
      '--mode',
      'sequential',
      '--out',
      out,
    );
    expect(r.code).toBe(EXIT.failed);
    expect(lastLine(r.out)).toBe(CONTRACT);
    const file = join(out, readdirSync(out).find((f) => f.endsWith('.json')) as string);
    const page = join(tmp, 'page.html');
    const drawn = await cli('report', file, '--out', page);
    expect(drawn.code).toBe(EXIT.ok);
    expect(lastLine(drawn.out)).toBe(CONTRACT);
    expect(readFileSync(page, 'utf8')).toContain(`<p class="triage">${CONTRACT}</p>`);
  });

  it('ends a reproduced replay, naming the switch that explains it; --json carries it as data', async () => {
    const args = [
      'replay',
      'scenarios/libraries/powertools-replays-after-move.json',
      '--handler',
      'src/handlers/libraries/fixtures/undeclared/powertools.ts',
    ];
    const r = await cli(...args);
    expect(r.code).toBe(EXIT.failed);
    expect(lastLine(r.out)).toBe(IDEMPOTENCY_FIRST);
    const json = decodeJson((await cli(...args, '--json')).out) as { triage: unknown };
    expect(json.triage).toMatchObject({
      change: { kind: 'policy', name: 'idempotencyFirst', value: true },
    });
  });

  it('is not printed where nothing failed', async () => {
    const r = await cli('replay', 'scenarios/libraries/powertools-replays-after-move.json');
    expect(r.code).toBe(EXIT.ok);
    expect(r.out).not.toContain('If you believe the handler is right');
  });
});
