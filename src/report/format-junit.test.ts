/**
 * JUnit XML: counts, a failure with the text, its timeline attached, and characters XML cannot
 * hold kept readable.
 */
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

  it('attaches the timeline of a failure as a testcase property and an ATTACHMENT line, and nothing to a pass', () => {
    const xml = formatJunit({
      name: 'receiptcheck',
      cases: [
        {
          name: 'check-then-act',
          classname: 'receiptcheck.run',
          timeMs: 1,
          failure: { message: 'rule 6', text: 'text' },
          attachments: [{ name: 'timeline', path: '/ci/out/check-then-act-scheduled-seed42.html' }],
        },
        { name: 'reference', classname: 'receiptcheck.run', timeMs: 1 },
      ],
    });
    const cases = (convert(xml, { format: 'object' }) as Loose).testsuites.testsuite.testcase;
    expect(cases[0].properties.property).toMatchObject({
      '@name': 'timeline',
      '@value': '/ci/out/check-then-act-scheduled-seed42.html',
    });
    expect(cases[0]['system-out']).toBe(
      '[[ATTACHMENT|/ci/out/check-then-act-scheduled-seed42.html]]',
    );
    expect(cases[1].properties).toBeUndefined();
    expect(cases[1]['system-out']).toBeUndefined();
  });

  it('keeps any text as it was: quotes, line breaks and markup in attributes and in the failure text', () => {
    const message = 'expected "ok"\n\tgot <refused> & \'more\'';
    const text = 'Steps:\n  1.  alice sends r0\n      ✗ expected ok(fresh)\n]]> <![CDATA[ end';
    const xml = formatJunit({
      name: 'receiptcheck',
      cases: [{ name: 'a "b"', classname: 'c', timeMs: 0, failure: { message, text } }],
    });
    const testcase = (convert(xml, { format: 'object' }) as Loose).testsuites.testsuite.testcase;
    // xmlbuilder2's object form leaves named entities undecoded (it checks the XML is well formed).
    const decoded = (v: string) =>
      v.replace(
        /&(quot|lt|gt|amp);/g,
        (_, e: string) => ({ quot: '"', lt: '<', gt: '>', amp: '&' })[e] ?? '',
      );
    expect(decoded(testcase['@name'])).toBe('a "b"');
    expect(decoded(testcase.failure['@message'])).toBe(message);
    expect(decoded(testcase.failure['#'])).toBe(text);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
  });
});
