/**
 * The one place a plugin is made ready to run, for every entry point (`checkHandler`, `runCase`
 * for replays and scenarios, `soak`, and through them bench and mutants): resolve and load it,
 * attach its declared policy to the fixture, and open the mode's runner with the judge behind it.
 * (Every mode limits calls by the call budget itself: a hang is a run's finding, judged like any.)
 */

import { ReceiptcheckError } from '../errors.ts';
import { createRunner } from '../execute/create-runner.ts';
import type { ModeRunner } from '../execute/mode-runner.ts';
import { contain } from '../execute/runtime/contain/contain.ts';
import { onInterrupt, throwIfInterrupted } from '../execute/runtime/interrupt.ts';
import { loadAnyPlugin, resolveHandlerPath } from '../execute/runtime/load-plugin.ts';
import type { AnyHandlerPlugin } from '../handlers/engine.ts';
import { pluginOperation } from '../handlers/plugin.ts';
import { bundledHandler } from '../handlers/registry.ts';
import type { OperationSpec } from '../model/operation.ts';
import { DEFAULT_OPERATION, operationNamed } from '../model/operations/index.ts';
import { declaresExpiry, type PolicyDeclaration, resolvePolicy } from '../model/policy.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import { DEFAULT_FIXTURE, type Fixture } from '../model/world.ts';
import type { OneModeOptions } from '../types/options.ts';
import { type JudgedRunner, judgedRunner } from './judged-runner.ts';

/** A loaded plugin and the fixture the model holds it to. */
export interface PreparedPlugin {
  readonly handlerPath: string;
  readonly plugin: AnyHandlerPlugin;
  /** The options' fixture with the plugin's declared policy attached. */
  readonly fixture: FixtureWithPolicy;
  /** The operation the plugin implements: every step of the run reads this spec. */
  readonly spec: OperationSpec;
}

/** A prepared plugin with its runner open. */
export interface PreparedRun extends PreparedPlugin {
  readonly runner: JudgedRunner;
}

/**
 * Resolves `handler` (from `cwd`, among `operation`'s bundled handlers), loads it, checks it
 * implements `operation` when one is asked for, and attaches its operation and policy to
 * `fixture`.
 */
export async function preparePlugin(
  handler: string,
  fixture: Fixture,
  cwd?: string,
  operation?: string,
): Promise<PreparedPlugin> {
  let handlerPath: string;
  try {
    handlerPath = resolveHandlerPath(handler, cwd, operation);
  } catch (thrown) {
    // `--operation nope`: say that, not that no handler of operation "nope" exists.
    if (operation !== undefined) operationNamed(operation);
    throw thrown;
  }
  const plugin = await loadAnyPlugin(handlerPath);
  const spec = pluginOperation(plugin);
  if (operation !== undefined && spec.name !== operation) {
    operationNamed(operation); // an unknown name gets its own message
    throw new ReceiptcheckError(
      'E_USAGE',
      `handler "${plugin.name}" implements operation "${spec.name}", not "${operation}"`,
    );
  }
  const withOp = withOperation(fixture, spec);
  const prepared = withPolicy(withOp, plugin.policy, plugin.name);
  if (prepared.policy && declaresExpiry(resolvePolicy(prepared.policy)) && !plugin.advanceClock) {
    throw new ReceiptcheckError(
      'E_HANDLER_SHAPE',
      `handler "${plugin.name}" declares an expiry (receiptExpiry or claimExpiry in ms) but has no advanceClock(db, ms): the harness cannot move its clock`,
    );
  }
  return { handlerPath, plugin, fixture: prepared, spec };
}

/**
 * The operation `handler` implements, without opening a runner: the one a bundled name belongs
 * to, or the one a plugin file names (it is loaded, and cached for the run that follows).
 */
export async function handlerOperation(handler: string, cwd?: string): Promise<string> {
  const bundled = bundledHandler(handler);
  if (bundled) return bundled.operation;
  return pluginOperation(await loadAnyPlugin(resolveHandlerPath(handler, cwd))).name;
}

/**
 * The fixture for `spec`: the default fixture stands for "the operation's own" (its rows and
 * principals), and any operation but `set-interval` is named in it, so the model, a worker and
 * a saved case file all know which operation a run checks. `set-interval` fixtures stay as
 * they were, so its case files do too.
 */
function withOperation(fixture: Fixture, spec: OperationSpec): FixtureWithPolicy {
  if (spec === DEFAULT_OPERATION) return fixture;
  const base = fixture === DEFAULT_FIXTURE ? spec.fixture : fixture;
  return { ...base, operation: spec.name };
}

/** Prepares the plugin `o.handler` and opens the runner of `o.mode` for it. */
export async function prepareRun(o: OneModeOptions, cwd?: string): Promise<PreparedRun> {
  throwIfInterrupted('before the run started');
  // From loading the plugin until the runner closes, what its code prints is kept and what it
  // lets escape is charged to its calls (`execute/runtime/contain/`), on this thread as on the workers.
  const release = contain();
  let opened: ModeRunner;
  let prepared: PreparedPlugin;
  try {
    prepared = await preparePlugin(o.handler, o.fixture, cwd, o.operation);
    opened = await createRunner(prepared.plugin, prepared.handlerPath, {
      ...o,
      fixture: prepared.fixture,
      spec: prepared.spec,
    });
  } catch (thrown) {
    release();
    throw thrown;
  }
  const { fixture, spec } = prepared;
  // Live work for Ctrl-C even when the mode owns nothing to clean up (sequential mode), so a
  // signal stops the run instead of killing the process mid-report.
  const untrack = onInterrupt(() => opened.close());
  const runner = {
    ...opened,
    close: async () => {
      try {
        await opened.close();
      } finally {
        untrack();
        release();
      }
    },
  };
  return { ...prepared, runner: judgedRunner(runner, fixture, spec) };
}

/**
 * The fixture with the plugin's declared policy attached (resolved and checked), or unchanged
 * when the plugin declares none, so contract handlers' counterexamples stay as they were.
 */
export function withPolicy(
  fixture: Fixture,
  declared: PolicyDeclaration | undefined,
  handler: string,
): FixtureWithPolicy {
  if (declared === undefined) return fixture;
  return { ...fixture, policy: resolvePolicy(declared, handler) };
}
