/**
 * JUnit XML for CI: one testsuite, one testcase per check (per handler in `mutants`, per file in
 * `scenarios`), a failure element carrying the rendered counterexample. Pure: returns the text.
 */
import { create } from 'xmlbuilder2';

/** One testcase. */
export interface JunitCase {
  readonly name: string;
  readonly classname: string;
  readonly timeMs: number;
  /** Present when the case failed. */
  readonly failure?: { readonly message: string; readonly text: string };
  /** Present when the case did not run to a verdict (for example, a plugin that could not load). */
  readonly error?: { readonly message: string; readonly text: string };
  /**
   * Files a reader of the failure should open (its HTML timeline): each written as a testcase
   * property and as a `[[ATTACHMENT|path]]` line in system-out, the form GitLab and Jenkins'
   * attachments plugin turn into a link (an absolute path, or one relative to the project).
   */
  readonly attachments?: readonly { readonly name: string; readonly path: string }[];
}

/** One testsuite. */
export interface JunitSuite {
  readonly name: string;
  readonly cases: readonly JunitCase[];
  /** Written as suite properties, e.g. the seed. */
  readonly properties?: Readonly<Record<string, string | number>>;
}

/** The suite as a JUnit XML document. */
export function formatJunit(suite: JunitSuite): string {
  const failures = suite.cases.filter((c) => c.failure).length;
  const errors = suite.cases.filter((c) => c.error).length;
  const timeMs = suite.cases.reduce((sum, c) => sum + c.timeMs, 0);
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites', {
    name: suite.name,
    tests: suite.cases.length,
    failures,
    errors,
    time: seconds(timeMs),
  });
  const s = root.ele('testsuite', {
    name: suite.name,
    tests: suite.cases.length,
    failures,
    errors,
    skipped: 0,
    time: seconds(timeMs),
  });
  if (suite.properties) {
    const props = s.ele('properties');
    for (const [name, value] of Object.entries(suite.properties))
      props.ele('property', { name, value: String(value) });
  }
  for (const c of suite.cases) {
    const t = s.ele('testcase', { name: c.name, classname: c.classname, time: seconds(c.timeMs) });
    const attachments = c.attachments ?? [];
    if (attachments.length > 0) {
      const props = t.ele('properties');
      for (const a of attachments) props.ele('property', { name: a.name, value: xmlSafe(a.path) });
    }
    if (c.failure)
      t.ele('failure', { message: xmlSafe(c.failure.message), type: 'counterexample' }).txt(
        xmlSafe(c.failure.text),
      );
    if (c.error)
      t.ele('error', { message: xmlSafe(c.error.message), type: 'error' }).txt(
        xmlSafe(c.error.text),
      );
    if (attachments.length > 0)
      t.ele('system-out').txt(
        attachments.map((a) => `[[ATTACHMENT|${xmlSafe(a.path)}]]`).join('\n'),
      );
  }
  return `${root.end({ prettyPrint: true })}\n`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to escape
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text with the characters XML 1.0 cannot hold (a handler's error message may carry any) escaped. */
export function xmlSafe(text: string): string {
  return text.replace(NOT_XML, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
