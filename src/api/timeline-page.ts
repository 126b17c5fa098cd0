/**
 * The HTML timeline from code: what `receiptcheck report` and `run --html` draw, for a user who
 * holds a counterexample (from `checkHandler`) or a saved case file. The page is one
 * self-contained file: lanes on a shared time axis, each call a bar with its outcome, the
 * statements of a scheduled run, the checker's verdict, the database at the end, and the commands
 * that reproduce the case.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { messageOf, ReceiptcheckError } from '../errors.ts';
import { buildTimeline } from '../report/timeline/build-timeline.ts';
import { renderTimelineHtml } from '../report/timeline/render-timeline-html.ts';
import type { Counterexample } from '../types/results.ts';
import { loadTimeline } from './load-timeline.ts';

/** What `renderTimeline` takes besides the counterexample. */
export interface RenderTimelineOptions {
  /**
   * The case file saved for it (`saveCounterexample(...).path`): the page's replay command names
   * it. Without it the page gives the re-run command only.
   */
  readonly savedPath?: string;
}

/** What `writeTimeline` takes besides the file. */
export interface WriteTimelineOptions {
  /** Where the page is written. Default: beside the file, `NAME.html` for `NAME.json`. */
  readonly out?: string;
}

/**
 * The HTML timeline page of `cx`, as the text of one self-contained file (no network: its styles
 * and script are inline). Pure: write it wherever suits; `writeTimeline` draws a saved file.
 */
export function renderTimeline(cx: Counterexample, options: RenderTimelineOptions = {}): string {
  return renderTimelineHtml(
    buildTimeline(cx, options.savedPath ? { savedPath: options.savedPath } : {}),
  );
}

/**
 * Draws the case saved at `file` (a counterexample `saveCounterexample` or `run` wrote, a scenario,
 * or the history a failed soak wrote, of which it draws the failing partition) and writes its
 * page; returns the page's path. What `receiptcheck report FILE` does, for an operation known in
 * this process: a case of a user's own needs its plugin loaded first (a `checkHandler` of it does),
 * else `E_USAGE` names the known operations. Throws `E_BAD_SCENARIO` for a file it cannot read,
 * parse or fit to its operation, `E_BAD_OPTION` when the page cannot be written.
 */
export function writeTimeline(file: string, options: WriteTimelineOptions = {}): string {
  const page = options.out ?? timelinePathFor(file);
  writePage(page, renderTimelineHtml(loadTimeline(file)));
  return page;
}

/** `DIR/NAME.html` for a case file `…/NAME.json`: where its page goes, by default beside it. */
export function timelinePathFor(file: string, dir: string = dirname(file)): string {
  return join(dir, `${basename(file).replace(/\.json$/i, '')}.html`);
}

/** Writes `html` to `path`, creating its folder; a failure is `E_BAD_OPTION` naming the path. */
export function writePage(path: string, html: string): void {
  try {
    mkdirSync(dirname(resolve(path)), { recursive: true });
    writeFileSync(path, html);
  } catch (thrown) {
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `cannot write the timeline to ${path}: ${messageOf(thrown)}; pass a writable path as out`,
      { cause: thrown },
    );
  }
}
