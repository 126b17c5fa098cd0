/**
 * An operation's argument fields from a JSON Schema object, the form an MCP tool's `inputSchema`
 * takes (and an OpenAPI request body's), so a service in any language that declares its input
 * gets the generators' valid, boundary and invalid values and the model's validation from that
 * one declaration: what `fieldsFromZod` does for zod, with the same rule types.
 *
 * Pure; it reads the schema and samples it, never fetches a `$ref`.
 */
import { ReceiptcheckError } from '../../errors.ts';
import type { ArgumentField } from '../../model/operation.ts';
import {
  customField,
  type IntegerRule,
  integerRuleFor,
  ruleAgrees,
  sortCandidates,
} from '../schema-field-rules.ts';
import { badSchema, checkOf, type JsonSchema, numericLimits } from './json-schema-check.ts';
import { candidatesOf } from './json-schema-samples.ts';

/** A value new intents may send in a custom field. */
type Sample = number | string | boolean;

/** What `fieldsFromJsonSchema` takes besides the schema. */
export interface FieldsFromJsonSchemaOptions {
  /**
   * Valid values of a field, by name: what new intents send there, tried before the values
   * derived from the schema. Needed where none can be derived (a pattern with a lookahead).
   * Each must pass the field's schema.
   */
  readonly samples?: Readonly<Record<string, readonly Sample[]>>;
  /** The property that carries the request id, left out of the fields. Default `requestId`. */
  readonly requestIdProperty?: string;
}

/** What an integer rule's schema may hold besides its limits. */
const INTEGER_KEYS = new Set([
  'type',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'title',
  'description',
  'examples',
  '$comment',
]);

/**
 * The fields of `schema` (`{type: 'object', properties, required}`), in its property order, the
 * request id's property left out.
 * - A required `integer` with only limits is an `id` when they are exactly ≥ 1, else an `integer`
 *   with those limits (when the generators can reach past them within the safe integers).
 * - Anything else (strings with `enum`, `pattern`, `minLength`/`maxLength`; numbers; booleans;
 *   `anyOf`/`oneOf`; optional fields) is `custom`, checked by the schema itself
 *   (`json-schema-check.ts`), with valid and invalid samples derived from it.
 *
 * Throws `E_BAD_SCHEMA` for a schema that is not such an object, a keyword it cannot judge, a
 * default, a field named `requestId` that is not the request id's property, and a field no
 * valid value is found for (pass `options.samples`).
 */
export function fieldsFromJsonSchema(
  schema: unknown,
  options: FieldsFromJsonSchemaOptions = {},
): ArgumentField[] {
  const properties = propertiesOf(schema);
  const requestId = options.requestIdProperty ?? 'requestId';
  const names = Object.keys(properties).filter((n) => n !== requestId);
  for (const name of Object.keys(options.samples ?? {}))
    if (!names.includes(name))
      throw new ReceiptcheckError(
        'E_BAD_OPTION',
        `samples names "${name}", which is not a field of the schema; fields: ${names.join(', ')}`,
      );
  const required = new Set(
    Array.isArray((schema as { required?: unknown }).required)
      ? ((schema as { required: unknown[] }).required as string[])
      : [],
  );
  return names.map((name) =>
    fieldFrom(
      name,
      properties[name] as JsonSchema,
      required.has(name),
      options.samples?.[name] ?? [],
    ),
  );
}

function propertiesOf(schema: unknown): Readonly<Record<string, unknown>> {
  const s = schema as { type?: unknown; properties?: unknown } | null;
  if (typeof s !== 'object' || s === null || (s.type !== undefined && s.type !== 'object'))
    throw new ReceiptcheckError(
      'E_BAD_SCHEMA',
      `expected a JSON Schema object ({"type": "object", "properties": {...}}), got ${JSON.stringify(schema)?.slice(0, 80)}`,
    );
  if (typeof s.properties !== 'object' || s.properties === null)
    throw new ReceiptcheckError(
      'E_BAD_SCHEMA',
      'the schema lists no properties: receiptcheck takes the fields from "properties"',
    );
  return s.properties as Record<string, unknown>;
}

function fieldFrom(
  name: string,
  schema: JsonSchema,
  required: boolean,
  given: readonly Sample[],
): ArgumentField {
  if (name === 'requestId')
    throw badSchema(
      name,
      'is named as the request id receiptcheck validates itself; name the request id property (requestIdProperty) or rename the field',
    );
  const own = checkOf(name, schema);
  const accepts = required ? own : (v: unknown) => v === undefined || own(v);
  const refused = given.filter((v) => !accepts(v));
  if (refused.length > 0)
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `samples for "${name}" must pass its schema; these do not: ${refused.map((v) => JSON.stringify(v)).join(', ')}`,
    );
  const rule = required ? integerRuleOf(name, schema, accepts) : undefined;
  if (rule) return { name, rule, ...(given.length > 0 ? { typical: given as number[] } : {}) };
  const candidates = [...given, ...candidatesOf(schema)];
  const sorted = sortCandidates(candidates, accepts);
  if (sorted.valid.length === 0)
    throw badSchema(
      name,
      `no value its schema accepts was found (a pattern beyond what can be sampled); pass some: fieldsFromJsonSchema(schema, { samples: { ${name}: [...] } })`,
    );
  return customField(name, accepts, sorted);
}

/** The id or integer rule a plain, limited `integer` schema stands for exactly, or undefined. */
function integerRuleOf(
  name: string,
  schema: JsonSchema,
  accepts: (value: unknown) => boolean,
): IntegerRule | undefined {
  if (typeof schema === 'boolean' || schema.type !== 'integer') return undefined;
  if (Object.keys(schema).some((k) => !INTEGER_KEYS.has(k))) return undefined;
  const limits = numericLimits(name, schema);
  let min = Number.MIN_SAFE_INTEGER;
  let max = Number.MAX_SAFE_INTEGER;
  if (limits) {
    min = Math.max(min, Math.ceil(limits.min), Math.floor(limits.above) + 1);
    max = Math.min(max, Math.floor(limits.max), Math.ceil(limits.below) - 1);
  }
  if (min > max) return undefined;
  const rule = integerRuleFor(min, max);
  if (!rule) return undefined;
  // The rule must judge the edges as the schema does, or the field stays the schema's own.
  const probes = [min, max, min - 1, max + 1, 0, -0, 1, -1, min + 0.5, 2 ** 53, '1', true, null];
  return ruleAgrees(rule, probes, accepts) ? rule : undefined;
}
