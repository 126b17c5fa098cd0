/**
 * `receiptcheck operations`: the built-in operations, each with its tool revision, scope,
 * target, fields (in validation order) and the refusals its precondition gives.
 */
import type { Command } from 'commander';
import { type FieldRule, type OperationSpec, targetFieldsOf } from '../../model/operation.ts';
import { BUILT_IN_OPERATIONS, DEFAULT_OPERATION } from '../../model/operations/index.ts';
import { encodeJson } from '../../report/encode.ts';
import type { CliContext } from '../cli-context.ts';
import { EXIT } from '../exit-codes.ts';

/** One operation as `--json` lists it. */
interface OperationListing {
  readonly name: string;
  readonly default: boolean;
  readonly description: string;
  readonly tool: string;
  readonly scope: string;
  readonly table: string;
  readonly target: string;
  /** Every argument naming a target row, `target` first (two for a transfer). */
  readonly targets: readonly string[];
  readonly fields: readonly { readonly name: string; readonly rule: string }[];
  readonly result: readonly string[];
  readonly refusals: readonly string[];
  readonly creates?: string;
}

/** Registers `operations`. */
export function registerOperations(program: Command, ctx: CliContext): void {
  program
    .command('operations')
    .description('list the built-in operations (pick one with run --operation NAME)')
    .option('--json', 'print one JSON object on stdout')
    .addHelpText(
      'after',
      `
A plugin names its operation (operation: 'create-once', or a spec of its own from
defineOperation); run --operation NAME picks that operation's bundled handlers.`,
    )
    .action((flags: { json?: boolean }) => {
      const listed = BUILT_IN_OPERATIONS.map(listing);
      if (flags.json) ctx.io.stdout(`${encodeJson({ operations: listed })}\n`);
      else ctx.io.stdout(`${listed.map(describe).join('\n\n')}\n`);
      ctx.exitCode = EXIT.ok;
    });
}

function listing(spec: OperationSpec): OperationListing {
  return {
    name: spec.name,
    default: spec === DEFAULT_OPERATION,
    description: spec.description,
    tool: spec.tool,
    scope: spec.scope,
    table: spec.table,
    target: spec.targetField,
    targets: targetFieldsOf(spec),
    fields: spec.fields.map((f) => ({ name: f.name, rule: ruleText(f.rule) })),
    result: spec.resultFields,
    refusals: ['forbidden', 'unavailable', 'conflict', ...(spec.refusals ?? [])],
    ...(spec.created ? { creates: spec.created.table } : {}),
  };
}

function describe(o: OperationListing): string {
  return [
    `${o.name}${o.default ? ' (default)' : ''}: ${o.description}`,
    `  tool ${o.tool}, scope ${o.scope}, target ${o.table} by ${o.targets.join(' and ')}${o.creates ? `, creates ${o.creates}` : ''}`,
    `  fields: requestId, ${o.fields.map((f) => `${f.name} (${f.rule})`).join(', ')}`,
    `  result: ${o.result.join(', ')}`,
  ].join('\n');
}

function ruleText(rule: FieldRule): string {
  switch (rule.kind) {
    case 'id':
      return 'an integer ≥ 1';
    case 'integer':
      return `an integer in ${rule.min}–${rule.max}${rule.nonZero ? ', not 0' : ''}`;
    case 'custom':
      return 'checked by the spec';
  }
}
