/** JUnit XML: counts, a failure with the text, and characters XML cannot hold kept readable. */
import { describe, expect, it } from 'vitest';
import { convert } from 'xmlbuilder2';
import { formatJunit } from './format-junit.ts';

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON and XML, held to shape by the assertions
type Loose = any;

describe('formatJunit', () => {
  it('writes one testsuite with a testcase per check and the failure text', () => {
    const xml = formatJunit({
      name: 'receiptcheck',
      properties: { seed: 42 },
      cases: [
        { name: 'reference', classname: 'receiptcheck.mutants', timeMs: 1200 },
        {
          name: 'version-before-receipt',
          classname: 'receiptcheck.mutants',
          timeMs: 30,
          failure: { message: 'killed <rule 7> & more', text: '1.  alice\u0000 sends r0' },
        },
      ],
    });
    const doc = convert(xml, { format: 'object' }) as Loose;
    const suite = doc.testsuites.testsuite;
    expect(suite).toMatchObject({ '@tests': '2', '@failures': '1', '@time': '1.230' });
    expect(suite.properties.property).toMatchObject({ '@name': 'seed', '@value': '42' });
    expect(xml).toContain('message="killed &lt;rule 7&gt; &amp; more"');
    expect(suite.testcase[1].failure['#']).toBe('1.  alice\\u0000 sends r0');
    expect(suite.testcase[0].failure).toBeUndefined();
  });
});
