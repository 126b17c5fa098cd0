/**
 * JUnit XML for CI: one testsuite, one testcase per check (per handler in `mutants`, per file in
 * `scenarios`), a failure element carrying the rendered counterexample. Pure: returns the text.
 */
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
  const time = seconds(suite.cases.reduce((sum, c) => sum + c.timeMs, 0));
  const tests = suite.cases.length;
  const properties = Object.entries(suite.properties ?? {});
  const testsuite = element(
    'testsuite',
    { name: suite.name, tests, failures, errors, skipped: 0, time },
    [
      ...(properties.length > 0
        ? [
            element(
              'properties',
              {},
              properties.map(([name, value]) => element('property', { name, value })),
            ),
          ]
        : []),
      ...suite.cases.map(testcase),
    ],
  );
  const root = element('testsuites', { name: suite.name, tests, failures, errors, time }, [
    testsuite,
  ]);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root.join('\n')}\n`;
}

/** One testcase element's lines. */
function testcase(c: JunitCase): string[] {
  const attachments = c.attachments ?? [];
  const children: string[][] = [];
  if (attachments.length > 0)
    children.push(
      element(
        'properties',
        {},
        attachments.map((a) => element('property', { name: a.name, value: xmlSafe(a.path) })),
      ),
    );
  if (c.failure)
    children.push(
      element(
        'failure',
        { message: xmlSafe(c.failure.message), type: 'counterexample' },
        xmlSafe(c.failure.text),
      ),
    );
  if (c.error)
    children.push(
      element('error', { message: xmlSafe(c.error.message), type: 'error' }, xmlSafe(c.error.text)),
    );
  if (attachments.length > 0)
    children.push(
      element(
        'system-out',
        {},
        attachments.map((a) => `[[ATTACHMENT|${xmlSafe(a.path)}]]`).join('\n'),
      ),
    );
  return element(
    'testcase',
    { name: c.name, classname: c.classname, time: seconds(c.timeMs) },
    children,
  );
}

/**
 * An element as lines, its children indented by two spaces; text content stays on the element's
 * line, as it is (a counterexample's lines are the text). Written by hand: JUnit needs only
 * elements, attributes and text, not an XML library in every user's install.
 */
function element(
  name: string,
  attributes: Readonly<Record<string, string | number>>,
  content: string | readonly (readonly string[])[] = [],
): string[] {
  const attrs = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${escapeAttribute(String(value))}"`)
    .join('');
  if (typeof content === 'string') return [`<${name}${attrs}>${escapeText(content)}</${name}>`];
  if (content.length === 0) return [`<${name}${attrs}/>`];
  return [`<${name}${attrs}>`, ...content.flat().map((line) => `  ${line}`), `</${name}>`];
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Quotes, and the whitespace a parser would otherwise fold into spaces in an attribute. */
function escapeAttribute(text: string): string {
  return escapeText(text)
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
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
