/**
 * receiptcheck's public API: everything exported here is supported; everything else is internal
 * and free to change. Named exports only. Others may append their exports below their own heading.
 */

export { assertHandler, CounterexampleError } from './api/assert-handler.ts';
// Checking a handler: data (`checkHandler`) or a throw for test runners (`assertHandler`).
export type { CheckResult, Counterexample } from './api/check-handler.ts';
export { checkHandler } from './api/check-handler.ts';
export { DEFAULT_OUT_DIR, saveCounterexample } from './api/counterexample-store.ts';
export { listCaseFiles, loadCaseFile } from './api/load-case-file.ts';
export type { CheckOptions, Mode, Progress, ResolvedOptions } from './api/options.ts';
export { DEFAULT_SEED, MODES, resolveOptions, SEED_ENV } from './api/options.ts';
// Case files: named scenarios and saved counterexamples, one format.
export type { CaseResult, RunCaseOptions } from './api/run-case.ts';
export { runCase } from './api/run-case.ts';
// Reports: failures explained and rendered, for custom runners.
export type { Failure, RunVerdict } from './check/check-run.ts';
// Concurrent mode and soak runs: races on real worker threads, judged by linearizability.
export type {
  LinearizabilityFailure,
  PlacedOperation,
} from './check/linearizability-failure.ts';
// Errors: one catalogue, stable codes.
export type { ErrorCode, ErrorData } from './errors.ts';
export { isReceiptcheckError, ReceiptcheckError } from './errors.ts';
export type { ConcurrentDetail } from './execute/concurrent/concurrent-mode.ts';
export type { SoakOptions, SoakResult } from './execute/concurrent/soak.ts';
export { soak } from './execute/concurrent/soak.ts';
export type { SoakCounts } from './execute/concurrent/soak-record.ts';
// Writing a handler plugin.
export type { Connection, HandlerPlugin } from './handlers/plugin.ts';
export { defineHandler } from './handlers/plugin.ts';
// The contract as data and pure functions: the reference model.
export type {
  CallEvent,
  CallIntent,
  CallRequest,
  ConcurrentGroup,
  Delivery,
  Event,
  Step,
  WorldEvent,
} from './model/events.ts';
export type { InvalidField, Observed, Outcome, RefusalReason } from './model/outcome.ts';
export { describeOutcome, outcome, sameOutcome, sameResult } from './model/outcome.ts';
export { isOutcome } from './model/outcome-shape.ts';
export type { ModelState } from './model/state.ts';
export { initialState, receiptKey, toSnapshot } from './model/state.ts';
export type { Transition } from './model/step.ts';
export { run as runModel, samePayload, step } from './model/step.ts';
export { INTERVAL_MAX, INTERVAL_MIN, invalidField } from './model/validate.ts';
export type {
  Automation,
  CallResult,
  Fixture,
  Principal,
  Receipt,
  ReceiptPayload,
  Snapshot,
} from './model/world.ts';
export { DEFAULT_FIXTURE, TOOL, WRITE_SCOPE } from './model/world.ts';
export type { CaseFile, StepExpectation } from './report/case-file.ts';
export { CASE_FORMAT, formatCaseFile, parseCaseFile } from './report/case-file.ts';
export type { Explanation } from './report/explain-failure.ts';
export { explainFailure } from './report/explain-failure.ts';
export type { ReadableCase, RenderContext } from './report/format-counterexample.ts';
export { formatCounterexample } from './report/format-counterexample.ts';
