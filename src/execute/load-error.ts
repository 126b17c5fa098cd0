/**
 * Why a plugin module could not be loaded, as one line a user can act on: where (`file:line:col`)
 * and the first line of the real message. Loaders bury both: tsx's esbuild says "Transform failed
 * with 1 error:" and puts the place on the next line; Node's ES module loader gives a syntax error
 * with no place at all; a module that throws while loading has its place only in its stack. The
 * full error stays the `cause`, which `--verbose` prints.
 */
import { spawnSync } from 'node:child_process';
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { messageOf } from '../errors.ts';

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
  const transform = transformError(thrown);
  if (transform) return transform;
  const text = messageOf(thrown);
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const message = lines[0]?.trim() ?? text;
  const truncated = lines.length > 1;
  const location =
    viteLocation(thrown) ??
    arrowLocation(stackOf(thrown)) ??
    (thrown instanceof SyntaxError ? checkedLocation(path) : undefined) ??
    frameLocation(stackOf(thrown));
  return { ...(location ? { location } : {}), message, truncated };
}

/** esbuild's `TransformError` (tsx): `errors[i]` carry the text and a 0-based column. */
function transformError(thrown: unknown): LoadFailure | undefined {
  const errors = (thrown as { errors?: unknown } | null)?.errors;
  if (Array.isArray(errors) && errors.length > 0) {
    const first = errors[0] as {
      text?: unknown;
      location?: { file?: unknown; line?: unknown; column?: unknown } | null;
    };
    if (typeof first?.text === 'string') {
      const at = first.location;
      const location =
        typeof at?.file === 'string' && typeof at.line === 'number'
          ? `${at.file}:${at.line}${typeof at.column === 'number' ? `:${at.column + 1}` : ''}`
          : undefined;
      return {
        ...(location ? { location } : {}),
        message: first.text.split('\n')[0] ?? first.text,
        truncated: errors.length > 1 || first.text.includes('\n'),
      };
    }
  }
  // The same error as text only: tsx's loader runs in its own thread, and only the message
  // crosses back ("Transform failed with 1 error:", then `file:line:col: ERROR: text`).
  const text = messageOf(thrown);
  const m = /^(\S.*?):(\d+):(\d+): ERROR: (.*)$/m.exec(text);
  if (!m) return undefined;
  const rest = text.split('\n').filter((l) => l.trim() !== '' && !/^Transform failed/.test(l));
  return {
    location: `${m[1]}:${m[2]}:${Number(m[3]) + 1}`,
    message: m[4] ?? '',
    truncated: rest.length > 1,
  };
}

/** Vite's (vitest's) parse and transform errors: `loc` is `{file, line, column}`, `id` the module. */
function viteLocation(thrown: unknown): string | undefined {
  const e = thrown as { loc?: { file?: unknown; line?: unknown; column?: unknown }; id?: unknown };
  const file = typeof e?.loc?.file === 'string' ? e.loc.file : e?.id;
  if (typeof file !== 'string' || typeof e?.loc?.line !== 'number') return undefined;
  return `${file}:${e.loc.line}${typeof e.loc.column === 'number' ? `:${e.loc.column + 1}` : ''}`;
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
