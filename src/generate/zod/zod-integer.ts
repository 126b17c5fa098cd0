/**
 * The `id` or `integer` rule a zod number schema stands for, read from its definition, when
 * there is one the rule equals exactly: a plain integer (`.int()`, `z.int()`, `z.int32()`,
 * `z.uint32()`) with limits (`.min`, `.max`, `.gt`, `.lt`, `.positive()`, …) and nothing else.
 * Any other check (`.refine`, `.multipleOf`), coercion, or a non-integer number gives none, and
 * the field's rule is zod's own `safeParse` (`fields-from-zod.ts`). Pure.
 *
 * The rule is then held to zod on its edge values (`agreesWithZod`), so a zod release that read
 * a definition differently would make the field custom, never validate differently.
 */
import type * as z4 from 'zod/v4/core';
import { type IntegerRule, integerRuleFor, ruleAgrees } from '../schema-field-rules.ts';

/**
 * What each integer format accepts. `safeint` (what `.int()` adds) is exactly
 * `Number.isSafeInteger`, as the model's integer rules are; zod 4 rejects 2^53 under `.int()`.
 */
const FORMAT_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
};

/** The id or integer rule `schema` stands for exactly, or undefined. */
export function integerRuleOf(
  schema: z4.$ZodType,
  accepts: (value: unknown) => boolean,
): IntegerRule | undefined {
  const range = integerRange(schema);
  if (!range) return undefined;
  const [min, max] = range;
  const rule = integerRuleFor(min, max);
  if (!rule) return undefined;
  return agreesWithZod(rule, range, accepts) ? rule : undefined;
}

/** The integers `schema` accepts, `[min, max]`, when it is a plain integer range. */
function integerRange(schema: z4.$ZodType): readonly [number, number] | undefined {
  const def = (schema as z4.$ZodTypes)._zod.def;
  if (def.type !== 'number' || def.coerce) return undefined;
  // `z.int()` and its kin are a schema and a format check in one definition.
  const own = 'check' in def ? [def as unknown as z4.$ZodChecks['_zod']['def']] : [];
  const checks = [...own, ...(def.checks ?? []).map((c) => (c as z4.$ZodChecks)._zod.def)];
  let integer = false;
  let [min, max] = [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (const check of checks) {
    // A check applied only `when` something holds is not a plain limit.
    if (check.when) return undefined;
    if (check.check === 'number_format') {
      const limits = FORMAT_RANGES[check.format];
      if (!limits) return undefined;
      integer = true;
      [min, max] = [Math.max(min, limits[0]), Math.min(max, limits[1])];
    } else if (check.check === 'greater_than' && typeof check.value === 'number') {
      const v = check.value;
      min = Math.max(min, check.inclusive ? Math.ceil(v) : Math.floor(v) + 1);
    } else if (check.check === 'less_than' && typeof check.value === 'number') {
      const v = check.value;
      max = Math.min(max, check.inclusive ? Math.floor(v) : Math.ceil(v) - 1);
    } else {
      return undefined;
    }
  }
  return integer && min <= max ? [min, max] : undefined;
}

/** Whether `rule` and zod agree on the values where a misread definition would show. */
function agreesWithZod(
  rule: IntegerRule,
  [min, max]: readonly [number, number],
  accepts: (value: unknown) => boolean,
): boolean {
  const probes: unknown[] = [
    min,
    max,
    min - 1,
    max + 1,
    Math.trunc((min + max) / 2),
    0,
    -0,
    1,
    -1,
    min + 0.5,
    2 ** 53,
    Number.NaN,
    String(min),
    true,
    null,
  ];
  return ruleAgrees(rule, probes, accepts);
}
