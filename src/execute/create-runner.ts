/**
 * Picks the mode runner for the resolved options and the plugin's engine. Each mode lives in its
 * own file; this is the only place that knows them all.
 */

import { ReceiptcheckError } from '../errors.ts';
import type { AnyHandlerPlugin } from '../handlers/engine.ts';
import { isPostgresPlugin, type PostgresHandlerPlugin } from '../handlers/postgres/plugin.ts';
import type { RunOptions } from '../types/options.ts';
import type { ModeRunner } from './mode-runner.ts';
import { postgresConcurrentRunner } from './postgres/concurrent-mode.ts';
import { postgresScheduledRunner } from './postgres/scheduled/scheduled-mode.ts';
import { postgresSequentialRunner } from './postgres/sequential-mode.ts';
import { isServicePlugin } from './service/service-plugin.ts';
import { serviceRunner } from './service/service-runner.ts';
import { concurrentRunner } from './sqlite/concurrent/concurrent-mode.ts';
import { scheduledRunner } from './sqlite/scheduled/scheduled-mode.ts';
import { sequentialRunner } from './sqlite/sequential-mode.ts';

/** A runner for `options.mode`, for the plugin loaded from `handlerPath`, on its engine. */
export async function createRunner(
  plugin: AnyHandlerPlugin,
  handlerPath: string,
  options: RunOptions,
): Promise<ModeRunner> {
  if (isPostgresPlugin(plugin)) return postgresRunner(plugin, options);
  if (isServicePlugin(plugin)) return serviceRunner(plugin, options);
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

/** The PostgreSQL runner of `options.mode`. */
async function postgresRunner(
  plugin: PostgresHandlerPlugin,
  options: RunOptions,
): Promise<ModeRunner> {
  switch (options.mode) {
    case 'sequential':
      return postgresSequentialRunner(plugin, options);
    case 'concurrent':
      return postgresConcurrentRunner(plugin, options);
    case 'scheduled':
      return postgresScheduledRunner(plugin, options);
    default:
      throw new ReceiptcheckError('E_BAD_OPTION', `mode "${options.mode}" is not available yet`);
  }
}
