/**
 * The drawn-spec guard's handler: a drawn spec (`SpecDraw`) built into its operation spec and
 * the generic handler for it, on the engine asked for, with the server's id rule asked for. What
 * a guard plugin module default-exports, so every thread that loads the module rebuilds the same
 * spec from the same data.
 */

import { ReceiptcheckError } from '../../errors.ts';
import { drawHash, type SpecDraw } from '../../generate/drawn-spec/spec-draw.ts';
import { specFromDraw, type ZodFieldOf } from '../../generate/drawn-spec/spec-from-draw.ts';
import type { AnyHandlerPlugin, Engine } from '../engine.ts';
import type { GenericPolicy } from './generic-policy.ts';
import { genericPostgresPlugin } from './generic-postgres.ts';
import { genericSqlitePlugin } from './generic-sqlite.ts';
import type { ServerIds } from './server-ids.ts';

/**
 * One case of the guard: a drawn spec, the engine, how the server assigns created ids, and the
 * policy the handler declares and honours (absent: the contract's).
 */
export interface DrawnCase {
  readonly draw: SpecDraw;
  readonly engine: Engine;
  /** `next` whenever the spec declares `ids: 'rowid'`, which predicts exactly that rule. */
  readonly ids: ServerIds;
  readonly policy?: GenericPolicy;
}

/** The plugin's name: the spec's hash, the engine, the id rule and the declared policy's switches. */
export function drawnPluginName(c: DrawnCase): string {
  const expiry =
    typeof c.policy?.receiptExpiry === 'number' ? `-expiry${c.policy.receiptExpiry}` : '';
  const refusals = c.policy?.storesRefusals ? '-storesrefusals' : '';
  return `guard-${drawHash(c.draw)}-${c.engine}-${c.ids}${expiry}${refusals}`;
}

/** The policy `c` declares, in words for a report: `contract` when it declares none. */
export function describeDrawnPolicy(c: DrawnCase): string {
  const declared = Object.entries(c.policy ?? {});
  return declared.length === 0
    ? 'contract'
    : declared.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ');
}

/** Whether `c`'s draw has a zod-derived field (its spec then needs the zod bridge). */
export function needsZod(draw: SpecDraw): boolean {
  return draw.fields.some((f) => f.kind === 'zod');
}

/** The generic handler for `c`'s spec, correct by construction. */
export function drawnPlugin(c: DrawnCase, zodField?: ZodFieldOf): AnyHandlerPlugin {
  const spec = specFromDraw(c.draw, zodField);
  const name = drawnPluginName(c);
  if (c.engine === 'postgres') {
    // The PostgreSQL handler honours the contract only; the guard draws no policy for it.
    if (c.policy && Object.keys(c.policy).length > 0) {
      throw new ReceiptcheckError(
        'E_HANDLER_SHAPE',
        `the generic PostgreSQL handler declares no policy (${describeDrawnPolicy(c)} asked)`,
      );
    }
    return genericPostgresPlugin(spec, name, c.ids);
  }
  return genericSqlitePlugin(spec, name, c.ids, {}, c.policy ?? {});
}
