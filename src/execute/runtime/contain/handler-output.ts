/**
 * What plugin code writes to stdout and stderr on this thread, kept instead of printed, so that
 * receiptcheck's stdout carries only its own output (exactly one JSON object with `--json`) and a
 * counterexample can show what the handler printed. While capture is on, `process.stdout.write`
 * and `process.stderr.write` (which `console.*` goes through) append to a bounded buffer while
 * plugin code runs (`inPluginCode`); other writes pass, unless everything is kept (`keepAll`:
 * the `receiptcheck` command, whose own writes go around the capture through `ownWrite`, so a
 * library printing from a timer after its call still stays off stdout). One buffer per thread:
 * a worker sends what it kept back with each reply, and the main thread adds it to the run's.
 */

/** The most characters of handler output kept per run; the rest is counted, not kept. */
export const HANDLER_OUTPUT_MAX_CHARS = 4_000;

type Write = typeof process.stdout.write;

/** The streams' own `write`s, as found: restored when capture ends. */
const found = { stdout: process.stdout.write, stderr: process.stderr.write };
/** The same, bound to their streams: how receiptcheck's own text goes past the capture. */
const original = {
  stdout: found.stdout.bind(process.stdout) as Write,
  stderr: found.stderr.bind(process.stderr) as Write,
};

let kept = '';
let dropped = 0;
let installs = 0;
let keepingAll = 0;
let pluginDepth = 0;

/** Writes receiptcheck's own text, past the capture. */
export function ownWrite(stream: 'stdout' | 'stderr', text: string): void {
  original[stream](text);
}

/** Starts keeping what is written to stdout and stderr on this thread; returns what stops it. */
export function captureOutput(): () => void {
  if (installs++ === 0) {
    process.stdout.write = keeping as Write;
    process.stderr.write = keeping as Write;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--installs === 0) {
      process.stdout.write = found.stdout;
      process.stderr.write = found.stderr;
    }
  };
}

/** Keeps every write on this thread, not only plugin code's, until the returned function is called. */
export function keepAll(): () => void {
  const release = captureOutput();
  keepingAll++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    keepingAll--;
    release();
  };
}

/** Runs `fn`, plugin code, keeping what it writes. */
export function inPluginCode<T>(fn: () => T): T {
  pluginDepth++;
  try {
    return fn();
  } finally {
    pluginDepth--;
  }
}

/**
 * `inPluginCode` without a closure, for the per-call path: marks plugin code as running until
 * `pluginCodeReturned()`, which must follow in a `finally`.
 */
export function pluginCodeStarts(): void {
  pluginDepth++;
}

/** Ends what `pluginCodeStarts` began. */
export function pluginCodeReturned(): void {
  pluginDepth--;
}

/** Marks plugin code as running (a call awaited) until the returned function is called. */
export function pluginCodeRunning(): () => void {
  pluginDepth++;
  let done = false;
  return () => {
    if (!done) pluginDepth--;
    done = true;
  };
}

/** Plugin code was stopped mid-way (a watchdog skips `finally` blocks): none runs any more. */
export function pluginCodeStopped(): void {
  pluginDepth = 0;
}

/** Whether plugin code is running on this thread (a call, or a call's promise awaited). */
export function inPluginCodeNow(): boolean {
  return pluginDepth > 0;
}

/** A stream like `process.stderr` that writes past the capture (for a progress bar's own drawing). */
export function ownStream(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  const write = stream === process.stdout ? original.stdout : original.stderr;
  return new Proxy(stream, {
    get(target, key, receiver) {
      if (key === 'write') return write;
      const value = Reflect.get(target, key, target) as unknown;
      // Bound to the proxy, so the stream's own methods (cursorTo, clearLine) write through it.
      return typeof value === 'function' ? value.bind(receiver) : value;
    },
  });
}

/** Adds text that another thread kept (a worker's reply) to this thread's buffer. */
export function keepOutput(text: string): void {
  if (text === '') return;
  const room = HANDLER_OUTPUT_MAX_CHARS - kept.length;
  if (room >= text.length) kept += text;
  else {
    kept += text.slice(0, Math.max(0, room));
    dropped += text.length - Math.max(0, room);
  }
}

/** What was kept since the last call (bounded, with a line counting what was not), and clears it. */
export function takeOutput(): string {
  const text =
    dropped > 0
      ? `${kept}${kept.endsWith('\n') ? '' : '\n'}… ${dropped} more characters not kept\n`
      : kept;
  kept = '';
  dropped = 0;
  return text;
}

/** A stream's `write(chunk, [encoding], [callback])`, kept; it reports success as a write would. */
function keeping(this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
  if (keepingAll === 0 && pluginDepth === 0)
    return (this === process.stderr ? original.stderr : original.stdout)(
      chunk as string,
      ...(rest as []),
    );
  keepOutput(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString());
  const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
  if (callback) queueMicrotask(callback);
  return true;
}
