/**
 * Every TypeScript example users are told to copy type-checks under the repository's compiler
 * settings, each in a project of its own, all in one `tsc` program (`doc-examples.ts`): one
 * compile of `src/` for all of them. A type error fails the test named for its example. The tests
 * that run each example are its own files; the packed package's types, compiled as a user's
 * project compiles them, are `src/package.test.ts`'s business.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DOC_EXAMPLES, type ExamplesTypeCheck, typeCheckExamples } from './doc-examples.ts';
import { outcomeOf, tempFolder } from './user-project.ts';

const temp = tempFolder('receiptcheck-examples-');
let checked: ExamplesTypeCheck | undefined;
beforeAll(() => {
  checked = typeCheckExamples(join(temp(), 'typecheck'));
}, 300_000);

function result(): ExamplesTypeCheck {
  if (!checked) throw new Error('the examples are type-checked in beforeAll');
  return checked;
}

describe('the examples users copy, type-checked in one program', () => {
  it.each(DOC_EXAMPLES)('$name type-checks', ({ folder }) => {
    const { tsc, errorsOf } = result();
    expect(errorsOf(folder), outcomeOf(tsc)).toEqual([]);
  });

  // Errors outside the examples' files (in the sources they import) or a failed run.
  it('tsc exits 0 over all of them', () => {
    const { tsc } = result();
    expect(tsc.status, outcomeOf(tsc)).toBe(0);
  });
});
