/**
 * Picks the mode runner for the resolved options and the plugin's engine. Each mode lives in its
 * own file; this is the only place that knows them all. A mode's code is imported when a runner
 * of it is first made, so a command loads only the engines and modes it runs: a check of a
 * SQLite plugin in one mode never loads the PostgreSQL driver, the service proxy or the lane
 * workers, which is most of a command's start-up.
 */

import { ReceiptcheckError } from '../errors.ts';
import type { AnyHandlerPlugin } from '../handlers/engine.ts';
import { isPostgresPlugin, type PostgresHandlerPlugin } from '../handlers/postgres/plugin.ts';
import type { RunOptions } from '../types/options.ts';
import type { ModeRunner } from './mode-runner.ts';
import { isServicePlugin } from './service/service-plugin.ts';

/** A runner for `options.mode`, for the plugin loaded from `handlerPath`, on its engine. */
export async function createRunner(
  plugin: AnyHandlerPlugin,
  handlerPath: string,
  options: RunOptions,
): Promise<ModeRunner> {
  if (isPostgresPlugin(plugin)) return postgresRunner(plugin, options);
  if (isServicePlugin(plugin)) {
    const { serviceRunner } = await import('./service/service-runner.ts');
    return serviceRunner(plugin, options);
  }
  switch (options.mode) {
    case 'sequential': {
      const { sequentialRunner } = await import('./sqlite/sequential-mode.ts');
      return sequentialRunner(plugin, options.fixture, options.callTimeoutMs);
    }
    case 'concurrent': {
      const { concurrentRunner } = await import('./sqlite/concurrent/concurrent-mode.ts');
      return concurrentRunner(plugin, handlerPath, options);
    }
    case 'scheduled': {
      const { scheduledRunner } = await import('./sqlite/scheduled/scheduled-mode.ts');
      return scheduledRunner(plugin, handlerPath, options);
    }
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
    case 'sequential': {
      const { postgresSequentialRunner } = await import('./postgres/sequential-mode.ts');
      return postgresSequentialRunner(plugin, options);
    }
    case 'concurrent': {
      const { postgresConcurrentRunner } = await import('./postgres/concurrent-mode.ts');
      return postgresConcurrentRunner(plugin, options);
    }
    case 'scheduled': {
      const { postgresScheduledRunner } = await import('./postgres/scheduled/scheduled-mode.ts');
      return postgresScheduledRunner(plugin, options);
    }
    default:
      throw new ReceiptcheckError('E_BAD_OPTION', `mode "${options.mode}" is not available yet`);
  }
}
