/**
 * Writes a timeline as its HTML page beside the case it draws (or where the user asked), and
 * says where: the one place the CLI turns timeline data into a file.
 */
import { dirname } from 'node:path';
import { timelinePathFor } from '../api/timeline-page.ts';
import type { RenderContext } from '../report/readable-case.ts';
import { buildTimeline, type TimelineCase } from '../report/timeline/build-timeline.ts';
import { renderTimelineHtml } from '../report/timeline/render-timeline-html.ts';
import type { Timeline } from '../report/timeline/timeline.ts';
import { writeTextFile } from './write-text-file.ts';

/** `dir/NAME.html` for a case file `…/NAME.json`. */
export function htmlPathFor(dir: string, casePath: string): string {
  return timelinePathFor(casePath, dir);
}

/** Writes the page for `timeline` to `path`; `flag` names the option in a write error. */
export function writeTimelineHtml(path: string, timeline: Timeline, flag: string): string {
  writeTextFile(path, renderTimelineHtml(timeline), flag);
  return path;
}

/** The line a command prints under its output once a page is written (one wording everywhere). */
export { timelineLine } from '../report/reproduce.ts';

/**
 * Writes the page of a case just saved at `savedPath` (a counterexample of `run`, a replayed case)
 * into `dir`, by default beside the case; returns the page's path.
 */
export function writeCaseTimeline(
  c: TimelineCase,
  savedPath: string,
  dir: string | undefined,
  context: RenderContext = {},
): string {
  return writeTimelineHtml(
    htmlPathFor(dir ?? dirname(savedPath), savedPath),
    buildTimeline(c, { ...context, savedPath }),
    '--html',
  );
}
