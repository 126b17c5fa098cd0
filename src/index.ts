/**
 * receiptcheck's public API: everything exported here is supported; everything else is internal
 * and free to change. Named exports only, kept sorted by module path (Biome's import order), so
 * they group by layer: api/ (checkHandler, assertHandler, options, case files), check/ (failure
 * types), errors, execute/ (soak runs), handlers/ (defineHandler for plugins), model/ (the
 * contract as pure functions and outcome types), report/ (explaining and rendering failures).
 */

export { assertHandler, CounterexampleError } from './api/assert-handler.ts';
export type { CheckResult, Counterexample } from './api/check-handler.ts';
export { checkHandler } from './api/check-handler.ts';
export { DEFAULT_OUT_DIR, saveCounterexample } from './api/counterexample-store.ts';
export { listCaseFiles, loadCaseFile } from './api/load-case-file.ts';
export type { CheckOptions, Mode, Progress, ResolvedOptions } from './api/options.ts';
export { DEFAULT_SEED, MODES, resolveOptions, SEED_ENV } from './api/options.ts';
export type { CaseResult, RunCaseOptions } from './api/run-case.ts';
export { runCase } from './api/run-case.ts';
export type { Failure, RunVerdict } from './check/check-run.ts';
export type {
  LinearizabilityFailure,
  PlacedOperation,
} from './check/linearizability-failure.ts';
export type { ErrorCode, ErrorData } from './errors.ts';
export { isReceiptcheckError, ReceiptcheckError } from './errors.ts';
export type { ConcurrentDetail } from './execute/concurrent/concurrent-mode.ts';
export type { SoakOptions, SoakResult } from './execute/concurrent/soak.ts';
export { soak } from './execute/concurrent/soak.ts';
export type { SoakCounts } from './execute/concurrent/soak-record.ts';
export type { Connection, HandlerPlugin } from './handlers/plugin.ts';
export { defineHandler } from './handlers/plugin.ts';
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
