/**
 * Checks an operation spec a plugin brings, once, before anything is generated from it: a
 * mistake in a spec otherwise surfaces far from its cause (a target field missing from `fields`
 * made a correct handler's answers look like rule 6 failures; a rule kind misspelt, an internal
 * error from the generators; a valid sample that fails its own check, nothing at all). Each
 * problem is one `E_HANDLER_SHAPE` line naming the operation and the field. The precondition's
 * reasons are checked where the model meets them (`undeclaredRefusal`), since only running it
 * tells which it gives. Pure.
 */
import { isReceiptcheckError, messageOf, ReceiptcheckError } from '../errors.ts';
import type { Args, ArgumentField, Effect, OperationSpec, Row } from './operation.ts';
import { BUILT_IN_REASONS } from './outcome-shape.ts';
import { fieldHolds } from './validate.ts';

const RULE_KINDS = ['id', 'integer', 'custom'];

const checked = new WeakSet<OperationSpec>();

/** Throws `E_HANDLER_SHAPE` naming the first problem of `spec`; a spec checked once is not again. */
export function checkOperationSpec(spec: OperationSpec): void {
  if (checked.has(spec)) return;
  const problem = specProblem(spec);
  if (problem)
    throw new ReceiptcheckError('E_HANDLER_SHAPE', `operation "${spec.name}": ${problem}`);
  checked.add(spec);
}

/** The first thing wrong with `spec`, in words, or undefined. */
export function specProblem(spec: OperationSpec): string | undefined {
  const names = spec.fields.map((f) => f.name);
  for (const target of [spec.targetField, ...(spec.otherTargets ?? [])])
    if (!names.includes(target))
      return `its target field "${target}" is not one of its fields (${names.join(', ')})`;
  for (const field of spec.fields) {
    const problem = fieldProblem(field);
    if (problem) return `field "${field.name}": ${problem}`;
  }
  if (spec.refusals !== undefined && !spec.refusals.every((r) => typeof r === 'string' && r))
    return 'its refusals must be a list of non-empty strings';
  return undefined;
}

function fieldProblem(field: ArgumentField): string | undefined {
  const rule = field.rule as { kind?: unknown };
  if (!RULE_KINDS.includes(rule.kind as string))
    return `its rule's kind ${JSON.stringify(rule.kind)} is not one of ${RULE_KINDS.join(', ')}`;
  const r = field.rule;
  if (r.kind === 'integer') {
    if (!Number.isSafeInteger(r.min) || !Number.isSafeInteger(r.max))
      return `its min and max must be safe integers (got ${r.min} and ${r.max})`;
    if (r.min > r.max) return `its min ${r.min} is above its max ${r.max}`;
    if (r.nonZero && r.min === 0 && r.max === 0) return 'it is nonZero with min and max 0';
  }
  if (r.kind === 'custom') {
    if (typeof r.check !== 'function') return 'a custom rule needs a check function';
    if (!Array.isArray(r.valid) || r.valid.length === 0)
      return 'a custom rule needs valid samples, the values new intents draw from';
    const failing = r.valid.find((v) => !holds(field, v));
    if (failing !== undefined)
      return `its valid sample ${JSON.stringify(failing)} fails its own check`;
  }
  const passing = (field.invalid ?? []).find((v) => holds(field, v));
  if (passing !== undefined) return `its invalid sample ${JSON.stringify(passing)} passes its rule`;
  return undefined;
}

/** Whether `value` holds for `field`; a check that throws counts as refusing it. */
function holds(field: ArgumentField, value: unknown): boolean {
  try {
    return fieldHolds(field, value);
  } catch {
    return false;
  }
}

const declared = new WeakMap<OperationSpec, ReadonlySet<string>>();

/**
 * The error for a precondition that refused with `reason` where `spec` declares no such refusal,
 * or undefined when it declares it (or it is built in). Asked only when the precondition refuses.
 */
export function undeclaredRefusal(
  spec: OperationSpec,
  reason: string,
): ReceiptcheckError | undefined {
  let reasons = declared.get(spec);
  if (!reasons) {
    reasons = new Set([...BUILT_IN_REASONS, ...(spec.refusals ?? [])]);
    declared.set(spec, reasons);
  }
  if (reasons.has(reason)) return undefined;
  return new ReceiptcheckError(
    'E_HANDLER_SHAPE',
    `operation "${spec.name}": its precondition refused with ${JSON.stringify(reason)}, which its refusals do not list; declare refusals: [${JSON.stringify(reason)}] (a handler's refused(${reason}) is otherwise not an outcome)`,
  );
}

/** `spec.effect` on a call; an exception from it is the spec's, named as such. */
export function specEffect(
  spec: OperationSpec,
  row: Row,
  args: Args,
  nextId: number,
  others: readonly Row[],
): Effect {
  try {
    return spec.effect(row, args, nextId, others);
  } catch (thrown) {
    if (isReceiptcheckError(thrown)) throw thrown;
    throw new ReceiptcheckError(
      'E_HANDLER_SHAPE',
      `operation "${spec.name}": its effect threw on row ${JSON.stringify(row)} and arguments ${JSON.stringify(args)}: ${messageOf(thrown)}`,
      { cause: thrown },
    );
  }
}
