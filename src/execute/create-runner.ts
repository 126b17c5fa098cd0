/**
 * Picks the mode runner for the resolved options. Each mode lives in its own file; this is the
 * only place that knows them all.
 */

import { ReceiptcheckError } from '../errors.ts';
import type { HandlerPlugin } from '../handlers/plugin.ts';
import type { OneModeOptions } from '../types/options.ts';
import { concurrentRunner } from './concurrent/concurrent-mode.ts';
import type { ModeRunner } from './mode-runner.ts';
import { scheduledRunner } from './scheduled/scheduled-mode.ts';
import { sequentialRunner } from './sequential-mode.ts';

/** A runner for `options.mode`, for the plugin loaded from `handlerPath`. */
export async function createRunner(
  plugin: HandlerPlugin,
  handlerPath: string,
  options: OneModeOptions,
): Promise<ModeRunner> {
  switch (options.mode) {
    case 'sequential':
      return sequentialRunner(plugin, options.fixture, options.callTimeoutMs);
    case 'concurrent':
      return concurrentRunner(plugin, handlerPath, options);
    case 'scheduled':
      return scheduledRunner(plugin, handlerPath, options);
    default:
      throw new ReceiptcheckError('E_BAD_OPTION', `mode "${options.mode}" is not available yet`);
  }
}
