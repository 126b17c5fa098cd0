/**
 * receiptcheck's public API: everything exported here is supported; everything else is internal
 * and free to change. Its surface is recorded in `api/receiptcheck.api.md` (`npm run lint` fails
 * when the two differ) and changes only as semver allows, each change in CHANGELOG.md. Named
 * exports only, in five groups:
 *
 * - checking a handler: `checkHandler` (a verdict as data), `assertHandler` (throws on a
 *   counterexample), `soak` (one long history), and their options;
 * - writing a plugin: `defineHandler` (SQLite), `definePostgresHandler` (PostgreSQL),
 *   `defineOperation` and the built-in operations' specs (`setIntervalSpec`, …), the `outcome`
 *   constructors, and the types a plugin's functions receive and return (the world, principals,
 *   requests, outcomes, policies);
 * - reading results: check, case and soak results, counterexamples, failures, findings and run
 *   details;
 * - case files: load, run, replay, parse and write scenarios and saved counterexamples; load,
 *   parse and write known-findings files;
 * - the HTML timeline of a counterexample or any saved case: `renderTimeline`, `writeTimeline`.
 */

export type { AssertOptions } from './api/assert-handler.ts';
export { CounterexampleError } from './api/counterexample-error.ts';
export type { SavedCounterexample, SaveOptions } from './api/counterexample-store.ts';
export { listCaseFiles, loadCaseFile } from './api/load-case-file.ts';
export { loadKnownFindings } from './api/load-known-findings.ts';
export {
  assertHandler,
  checkHandler,
  prove,
  replayCase,
  runCase,
  saveCounterexample,
  soak,
} from './api/on-first-call.ts';
export type { ProveOptions } from './api/prove.ts';
export type { ReplayOptions } from './api/replay-case.ts';
export type { RunCaseOptions } from './api/run-case.ts';
export type { RenderTimelineOptions, WriteTimelineOptions } from './api/timeline-page.ts';
export { renderTimeline, writeTimeline } from './api/timeline-page.ts';
export type { ErrorCode, ErrorData } from './errors.ts';
export { isReceiptcheckError, ReceiptcheckError } from './errors.ts';
export type { FieldsFromJsonSchemaOptions } from './generate/json-schema/fields-from-json-schema.ts';
export { fieldsFromJsonSchema } from './generate/json-schema/fields-from-json-schema.ts';
export type { Connection, HandlerPlugin } from './handlers/plugin.ts';
export { defineHandler, defineOperationHandler } from './handlers/plugin.ts';
export type {
  PgConnection,
  PgResult,
  PostgresHandlerPlugin,
} from './handlers/postgres/plugin.ts';
export { definePostgresHandler } from './handlers/postgres/plugin.ts';
export type {
  CallEvent,
  CallRequest,
  ConcurrentGroup,
  Delivery,
  Event,
  SetIntervalRequest,
  Step,
  WorldEvent,
} from './model/events.ts';
export type { HistoryEntry } from './model/history.ts';
export type {
  ArgumentField,
  CreatedRows,
  Effect,
  FieldRule,
  OperationSpec,
  WorldEvents,
} from './model/operation.ts';
export { createdRows, defineOperation, targetRows } from './model/operation.ts';
// The built-in operations' specs, named `…Spec` so none shadows a global (`setInterval`).
export { adjustBalance as adjustBalanceSpec } from './model/operations/adjust-balance.ts';
export {
  createOnce as createOnceSpec,
  createOnceOpaque as createOnceOpaqueSpec,
} from './model/operations/create-once.ts';
export { setInterval as setIntervalSpec } from './model/operations/set-interval.ts';
export { transfer as transferSpec } from './model/operations/transfer.ts';
export type { InvalidField, Observed, Outcome, RefusalReason } from './model/outcome.ts';
export { describeOutcome, outcome, SERVER_ASSIGNED } from './model/outcome.ts';
export type { Policy, PolicyDeclaration } from './model/policy.ts';
export { INTERVAL_MAX, INTERVAL_MIN } from './model/validate.ts';
export type {
  Args,
  Automation,
  CallResult,
  Fixture,
  Payload,
  Principal,
  Receipt,
  ReceiptPayload,
  Result,
  Row,
  SetIntervalFixture,
  SetIntervalSnapshot,
  Snapshot,
} from './model/world.ts';
export { DEFAULT_FIXTURE, defaultPrincipals, TOOL, WRITE_SCOPE } from './model/world.ts';
export { formatCaseFile, parseCaseFile } from './report/case-file.ts';
export { formatCounterexample } from './report/format-counterexample.ts';
export { formatKnownFindings, parseKnownFindings } from './report/known-findings.ts';
export type { CaseFile, StepExpectation } from './types/case-file.ts';
export type { Coverage, CoverageKind } from './types/coverage.ts';
export type { ConcurrentDetail, ScheduledDetail } from './types/execution.ts';
export type { FindingSignature, KnownFinding, KnownFindings } from './types/findings.ts';
export type { InputClass, InputCoverage } from './types/input-coverage.ts';
export type { LaneMode, Mode } from './types/mode.ts';
export type { EdgeCount, ModeShare, OperationCoverage } from './types/operation-coverage.ts';
export type { CheckOptions, Progress, SoakOptions } from './types/options.ts';
export type { ProvedCase, ProveFailure, ProveResult } from './types/prove.ts';
export type {
  ReplayResult,
  ReplayRoute,
  ReplayVerdict,
  ReproductionSearch,
  ScheduledReproduction,
} from './types/replay.ts';
export type {
  CaseResult,
  CheckResult,
  Counterexample,
  ExpectationFailure,
  Finding,
  SoakCounts,
  SoakResult,
} from './types/results.ts';
export type { StepSchedule } from './types/schedule.ts';
export type { DecisionCandidate, DecisionRecord } from './types/scheduled-trace.ts';
export type {
  Failure,
  InvariantViolation,
  LinearizabilityFailure,
  PlacedOperation,
  SnapshotDifference,
} from './types/verdict.ts';
