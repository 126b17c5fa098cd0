/**
 * Why a plugin module could not be loaded, as one line a user can act on: where (`file:line:col`)
 * and the first line of the real message. Loaders bury both: tsx's esbuild says "Transform failed
 * with 1 error:" and puts the place on the next line; Node's ES module loader gives a syntax error
 * with no place at all; a module that throws while loading has its place only in its stack. The
 * full error stays the `cause`, which `--verbose` prints.
 */
import { spawnSync } from 'node:child_process';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { messageOf } from '../../errors.ts';

/** Where a load failed, and the first line of why. */
export interface LoadFailure {
  /** `file:line` or `file:line:col` (1-based), when one can be found. */
  readonly location?: string;
  /** The first non-empty line of the real message. */
  readonly message: string;
  /** The real message had more than that line (`--verbose` shows it). */
  readonly truncated: boolean;
}

/** Most time `node --check` may take to find a JavaScript syntax error's place. */
const CHECK_TIMEOUT_MS = 10_000;

/** Describes what loading the module at absolute `path` threw. */
export function describeLoadFailure(thrown: unknown, path: string): LoadFailure {
  const transform = transformError(thrown) ?? compilerText(messageOf(thrown));
  if (transform) return transform;
  const text = messageOf(thrown);
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const message = lines[0]?.trim() ?? text;
  const truncated = lines.length > 1;
  const location =
    arrowLocation(stackOf(thrown)) ??
    (thrown instanceof SyntaxError ? checkedLocation(path) : undefined) ??
    frameLocation(stackOf(thrown));
  return { ...(location ? { location } : {}), message, truncated };
}

/** esbuild's `TransformError` (tsx in this thread): `errors[i]` carry the text and a 0-based column. */
function transformError(thrown: unknown): LoadFailure | undefined {
  const errors = (thrown as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const first = errors[0] as {
    text?: unknown;
    location?: { file?: unknown; line?: unknown; column?: unknown } | null;
  };
  if (typeof first?.text !== 'string') return undefined;
  const at = first.location;
  const location =
    typeof at?.file === 'string' && typeof at.line === 'number'
      ? place(at.file, at.line, typeof at.column === 'number' ? at.column + 1 : undefined)
      : undefined;
  return {
    ...(location ? { location } : {}),
    message: first.text.split('\n')[0] ?? first.text,
    truncated: errors.length > 1 || first.text.includes('\n'),
  };
}

/** A compiler's wrapper line: the real message and place are on the lines after it. */
const WRAPPER = /^(Transform failed|Parse failure: Parse failed) with \d+ errors?:?$/;

/**
 * The compilers' errors as text, when only the message reached us (tsx's loader runs in a thread
 * of its own) or the compiler writes no fields: esbuild's `file:line:col: ERROR: text` (0-based
 * column), oxc's (vite, so vitest) `[CODE] text` over a `[ file:line:col ]` box, rolldown's
 * `text` … `At file: file:line:col` (0-based column). Paths may be relative to the working folder.
 */
function compilerText(raw: string): LoadFailure | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes are what it strips
  const text = raw.replace(/\u001b\[[0-9;]*m/g, '');
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const esbuild = /^(\S.*?):(\d+):(\d+): ERROR: (.*)$/m.exec(text);
  if (esbuild)
    return {
      location: place(esbuild[1] ?? '', Number(esbuild[2]), Number(esbuild[3]) + 1),
      message: esbuild[4] ?? '',
      truncated: lines.filter((l) => /: ERROR: /.test(l)).length > 1,
    };
  if (!WRAPPER.test(lines[0] ?? '')) return undefined;
  const oxc = /\[\s*(\S+?):(\d+):(\d+)\s*\]/.exec(text);
  const rolldown = /^At file: (\S+?):(\d+):(\d+)$/m.exec(text);
  const location = oxc
    ? place(oxc[1] ?? '', Number(oxc[2]), Number(oxc[3]))
    : rolldown
      ? place(rolldown[1] ?? '', Number(rolldown[2]), Number(rolldown[3]) + 1)
      : undefined;
  const message = (lines[1] ?? lines[0] ?? '').replace(/^\[[A-Z_]+\]\s*/, '');
  return { ...(location ? { location } : {}), message, truncated: true };
}

/** `file:line[:col]`, the file made absolute from the working folder (and out of vite's `/@fs/`). */
function place(file: string, line: number, column?: number): string {
  const path = resolve(file.replace(/^\/@fs(?=\/)/, ''));
  return `${path}:${line}${column !== undefined ? `:${column}` : ''}`;
}

function stackOf(thrown: unknown): string {
  return thrown instanceof Error && typeof thrown.stack === 'string' ? thrown.stack : '';
}

/**
 * Node's decorated syntax error (CommonJS, `node --check`): `file:line`, the source line, then a
 * caret under the column.
 */
function arrowLocation(text: string): string | undefined {
  const m = /^(\S+?):(\d+)\n(.*)\n( *)\^/.exec(text);
  if (!m) return undefined;
  const file = toPath(m[1] ?? '');
  return file ? `${file}:${m[2]}:${(m[4] ?? '').length + 1}` : undefined;
}

/**
 * A JavaScript syntax error from Node's ES module loader names no place; `node --check` on the
 * file does. Only for the plugin's own file, and only when it is JavaScript (TypeScript fails in
 * the transform, which names its place).
 */
function checkedLocation(path: string): string | undefined {
  if (!/\.[cm]?js$/.test(path)) return undefined;
  const r = spawnSync(process.execPath, ['--check', path], {
    encoding: 'utf8',
    timeout: CHECK_TIMEOUT_MS,
  });
  return r.status === 0 ? undefined : arrowLocation(r.stderr ?? '');
}

/**
 * The first stack frame in a file of the user's (not Node's, not a dependency's): where a module
 * that threw while loading did it. None when every frame is a loader's (a module not found).
 */
function frameLocation(stack: string): string | undefined {
  const places: string[] = [];
  for (const line of stack.split('\n')) {
    const m = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/.exec(line);
    const file = m ? toPath(m[1] ?? '') : undefined;
    if (m && file) places.push(`${file}:${m[2]}:${m[3]}`);
  }
  return places.find((p) => !/[\\/]node_modules[\\/]/.test(p));
}

/** A file path from a stack's file name (a path or a `file:` URL); undefined for `node:` and the like. */
function toPath(name: string): string | undefined {
  if (name.startsWith('file://')) {
    try {
      return fileURLToPath(name);
    } catch {
      return undefined;
    }
  }
  return isAbsolute(name) ? name : undefined;
}
