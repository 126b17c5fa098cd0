/**
 * receiptcheck's public API: everything exported here is supported; everything else is internal
 * and free to change. Named exports only, kept sorted by module path (Biome's import order), so
 * they group by layer: api/ (checkHandler, assertHandler, options, case files), check/ (failure
 * types), errors, execute/ (soak runs), handlers/ (defineHandler for plugins), model/ (the
 * contract as pure functions and outcome types), report/ (explaining and rendering failures).
 */

export { assertHandler, CounterexampleError } from './api/assert-handler.ts';
export { checkHandler } from './api/check-handler.ts';
export { DEFAULT_OUT_DIR, saveCounterexample } from './api/counterexample-store.ts';
export { listCaseFiles, loadCaseFile } from './api/load-case-file.ts';
export { resolveOptions } from './api/options.ts';
export type { RunCaseOptions } from './api/run-case.ts';
export { runCase } from './api/run-case.ts';
export { soak } from './api/soak.ts';
export type { ErrorCode, ErrorData } from './errors.ts';
export { isReceiptcheckError, ReceiptcheckError } from './errors.ts';
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
export { formatCaseFile, parseCaseFile } from './report/case-file.ts';
export { explainFailure } from './report/explain-failure.ts';
export type { Explanation } from './report/explanation.ts';
export type { ReadableCase, RenderContext } from './report/format-counterexample.ts';
export { formatCounterexample } from './report/format-counterexample.ts';
export { CASE_FORMAT, type CaseFile, type StepExpectation } from './types/case-file.ts';
export type { ConcurrentDetail } from './types/execution.ts';
export { MODES, type Mode } from './types/mode.ts';
export type { SoakOptions } from './types/options.ts';
export {
  type CheckOptions,
  DEFAULT_SEED,
  type Progress,
  type ResolvedOptions,
  SEED_ENV,
} from './types/options.ts';
export type {
  CaseResult,
  CheckResult,
  Counterexample,
  SoakCounts,
  SoakResult,
} from './types/results.ts';
export type {
  Failure,
  LinearizabilityFailure,
  PlacedOperation,
  RunVerdict,
} from './types/verdict.ts';
