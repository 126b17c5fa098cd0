/**
 * `receiptcheck run --all-findings`: what it prints and writes. A case file and a timeline page
 * per finding, the known-findings file when asked for, each new finding's counterexample, the findings list and
 * the summary; with `--json`, the report object with its findings.
 */
import { resolve } from 'node:path';
import type { InterruptedWithFindings } from '../../api/all-findings.ts';
import { DEFAULT_OUT_DIR, saveCounterexample } from '../../api/counterexample-store.ts';
import { noteInterruptReported } from '../../execute/runtime/interrupt.ts';
import { counterexampleFileName } from '../../report/counterexample-case.ts';
import { encodeJson } from '../../report/encode.ts';
import { findingJson } from '../../report/findings-json.ts';
import { formatFindings, formatNewFindings, notSeen } from '../../report/format-findings.ts';
import { formatJunit } from '../../report/format-junit.ts';
import { formatSummary, reproducesDeterministically } from '../../report/format-summary.ts';
import { toJsonReport } from '../../report/json-report.ts';
import { formatKnownFindings } from '../../report/known-findings.ts';
import { runSuite } from '../../report/run-suite.ts';
import type { ResolvedOptions } from '../../types/options.ts';
import type { CheckResult, Finding } from '../../types/results.ts';
import type { CliContext } from '../cli-context.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { timelineLine, writeCaseTimeline } from '../timeline-file.ts';
import { writeTextFile } from '../write-text-file.ts';

/** The flags of `run` that say what to write and print. */
export interface FindingsFlags {
  readonly out?: string;
  readonly html?: string;
  readonly writeKnownFindings?: string;
  readonly junit?: string;
  readonly json?: boolean;
  readonly verbose?: boolean;
}

/**
 * An all-findings run's report: a case file per finding, the findings list, each new finding's
 * counterexample, the summary; exit 1 only when a finding is new.
 */
export async function reportFindings(
  result: CheckResult,
  findings: readonly Finding[],
  flags: FindingsFlags,
  resolved: ResolvedOptions,
  ctx: CliContext,
): Promise<typeof EXIT.ok | typeof EXIT.failed> {
  const { saved, pages } = await saveFindings(findings, flags);
  if (flags.writeKnownFindings)
    writeTextFile(
      flags.writeKnownFindings,
      formatKnownFindings(findings),
      '--write-known-findings',
    );
  const first =
    result.counterexample && findings.find((f) => f.counterexample === result.counterexample);
  const firstFile = first && saved.get(first.id);
  const firstPage = first && pages.get(first.id);
  const context = {
    // The seed the check ran: --seeds replaces --seed; a shard's own is derived from the base.
    baseSeed: resolved.shard ? resolved.seed : result.seed,
    ...(firstFile ? { savedPath: firstFile } : {}),
    ...(firstPage ? { hints: [timelineLine(firstPage)] } : {}),
    ...(flags.verbose ? { verbose: true } : {}),
    ...(resolved.timeLimitSeconds ? { timeLimitSeconds: resolved.timeLimitSeconds } : {}),
  };
  const junitContext = firstPage ? { ...context, timelinePath: resolve(firstPage) } : context;
  if (flags.junit)
    writeTextFile(flags.junit, formatJunit(runSuite(result, junitContext)), '--junit');
  const text = [
    ...findingsBlocks(findings, { saved, pages }, flags, resolved),
    formatSummary(result, context),
  ].join('\n\n');
  if (flags.json) {
    const report = {
      ...toJsonReport(result, firstPage ? { ...context, timelinePath: firstPage } : context),
      ...(result.seeds ? { seeds: result.seeds } : {}),
      findings: findingsJson(findings, { saved, pages }),
      ...(resolved.knownFindings
        ? { knownNotSeen: notSeen(findings, resolved.knownFindings) }
        : {}),
    };
    ctx.io.stdout(`${encodeJson(report)}\n`);
    ctx.io.stderr(`${text}\n`);
  } else ctx.io.stdout(`${text}\n`);
  return result.verdict === 'passed' ? EXIT.ok : EXIT.failed;
}

/**
 * An all-findings run stopped by a signal, with findings from the runs before it: each saved as
 * in a finished run, each new one's counterexample and the findings list printed, with no summary
 * (there is no verdict); with `--json`, one object whose verdict is `interrupted`, with the
 * findings. The known-findings file is not written: it would hold only part of the run's
 * findings. Exits with the signal's code (130 or 143), as any interrupted command.
 */
export async function reportInterruptedFindings(
  interrupted: InterruptedWithFindings,
  flags: FindingsFlags,
  resolved: ResolvedOptions,
  ctx: CliContext,
): Promise<ExitCode> {
  noteInterruptReported();
  const partial = interrupted.partial;
  const findings = partial.findings ?? [];
  const files = await saveFindings(findings, flags);
  const text = findingsBlocks(findings, files, flags, resolved).join('\n\n');
  const line = `receiptcheck: interrupted by ${interrupted.signal} after ${partial.runs} of ${partial.runsPlanned} runs; stopped without a verdict; the findings of those runs are above\n`;
  if (flags.json) {
    const report = {
      verdict: 'interrupted',
      signal: interrupted.signal,
      message: interrupted.message,
      runs: partial.runs,
      runsPlanned: partial.runsPlanned,
      findings: findingsJson(findings, files),
    };
    ctx.io.stdout(`${encodeJson(report)}\n`);
    ctx.io.stderr(`${text}\n${line}`);
  } else {
    ctx.io.stdout(`${text}\n`);
    ctx.io.stderr(line);
  }
  return interrupted.exitCode;
}

/** Where each finding's case file (`saved`) and timeline page (`pages`) went, by finding id. */
interface FindingFiles {
  readonly saved: Map<string, string>;
  readonly pages: Map<string, string>;
}

/** Each new finding's counterexample (when there is one), then the findings list. */
function findingsBlocks(
  findings: readonly Finding[],
  files: FindingFiles,
  flags: FindingsFlags,
  resolved: ResolvedOptions,
): string[] {
  const verbose = flags.verbose ? { verbose: true } : {};
  const details = formatNewFindings(findings, files.saved, verbose, files.pages);
  return [
    ...(details ? [details] : []),
    formatFindings(findings, files.saved, resolved.knownFindings, files.pages),
  ];
}

/** The findings as `--json` lists them, each with its case file and page. */
function findingsJson(findings: readonly Finding[], files: FindingFiles): object[] {
  return findings.map((f) => findingJson(f, files.saved.get(f.id), files.pages.get(f.id)));
}

/** Saves each finding's case file and timeline page. */
async function saveFindings(
  findings: readonly Finding[],
  flags: FindingsFlags,
): Promise<FindingFiles> {
  const saved = new Map<string, string>();
  const pages = new Map<string, string>();
  for (const f of findings) {
    const cx = f.counterexample;
    const file = await saveCounterexample(cx, flags.out ?? DEFAULT_OUT_DIR, undefined, {
      fileName: counterexampleFileName(cx, f.id),
    });
    saved.set(f.id, file.path);
    pages.set(
      f.id,
      writeCaseTimeline(cx, file.path, flags.html, {
        reproducesDeterministically: reproducesDeterministically(file.reproduction),
      }),
    );
  }
  return { saved, pages };
}
