/**
 * Reads any saved case (a scenario, a counterexample written by `run`, or a soak's history
 * written on failure) and computes its timeline. Reading is here; what to draw is `report/timeline`.
 */
import { readFileSync } from 'node:fs';
import { messageOf, ReceiptcheckError } from '../errors.ts';
import type { OperationSpec } from '../model/operation.ts';
import { parseCaseFile } from '../report/case-file.ts';
import { decodeJson } from '../report/encode.ts';
import type { RenderContext } from '../report/readable-case.ts';
import { buildTimeline } from '../report/timeline/build-timeline.ts';
import { caseFileTimelineCase } from '../report/timeline/case-timeline.ts';
import {
  buildSoakTimeline,
  SOAK_HISTORY_FORMAT,
  type SoakReportInput,
} from '../report/timeline/soak-timeline.ts';
import type { Timeline } from '../report/timeline/timeline.ts';
import { knownCaseOperation, type SavedCase } from './case-operation.ts';

/** A soak history as its file holds it: everything its report reads but the spec. */
type SavedSoak = Omit<SoakReportInput, 'spec'>;

/** A saved case or soak history, read and not yet drawn: what it says of its operation, and its drawing. */
export interface SavedTimeline {
  /** The file's handler, fixture and steps: what `caseOperation` makes its operation known from. */
  readonly saved: SavedCase;
  /** The timeline, in the terms of `spec`: the operation `caseOperation` resolved for `saved`. */
  draw(spec: OperationSpec): Timeline;
}

/**
 * Reads the case or soak history saved at `path` without drawing it, so a caller can first load
 * the plugin of a user's own operation (`caseOperation`); throws `E_BAD_SCENARIO` naming it.
 */
export function readTimeline(path: string): SavedTimeline {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (thrown) {
    throw new ReceiptcheckError('E_BAD_SCENARIO', `cannot read ${path}: ${messageOf(thrown)}`);
  }
  const soak = soakHistoryOf(text, path);
  if (soak)
    return {
      saved: { source: path, handler: soak.handler, fixture: soak.fixture, steps: [] },
      draw: (spec) => buildSoakTimeline({ ...soak, spec }, path),
    };
  const c = parseCaseFile(text, path);
  const context: RenderContext = { savedPath: path };
  return {
    saved: {
      source: path,
      handler: c.handlerNamed === false ? undefined : c.handler,
      fixture: c.fixture,
      steps: c.steps,
    },
    draw: (spec) => buildTimeline(caseFileTimelineCase(c, spec), context),
  };
}

/**
 * The timeline of the case or soak history saved at `path`, of an operation already known in this
 * process (built in, or its plugin loaded); throws `E_BAD_SCENARIO` naming the file.
 */
export function loadTimeline(path: string): Timeline {
  const read = readTimeline(path);
  return read.draw(knownCaseOperation(read.saved));
}

/**
 * The soak history in `text`, when it is one (its format tag says so); undefined otherwise. The
 * file names its operation in its fixture; the spec is the caller's to resolve.
 */
function soakHistoryOf(text: string, path: string): SavedSoak | undefined {
  let raw: unknown;
  try {
    raw = decodeJson(text);
  } catch {
    return undefined; // parseCaseFile reports malformed JSON in its own words.
  }
  const r = raw as Record<string, unknown> | null;
  if (typeof r !== 'object' || r === null || r.format !== SOAK_HISTORY_FORMAT) return undefined;
  const missing = ['history', 'failures', 'fixture', 'counts'].find(
    (k) => r[k] === undefined || (k !== 'fixture' && k !== 'counts' && !Array.isArray(r[k])),
  );
  if (missing)
    throw new ReceiptcheckError(
      'E_BAD_SCENARIO',
      `${path} is a soak history without a valid "${missing}"; write it again with receiptcheck soak --out DIR`,
    );
  return r as unknown as SavedSoak;
}
