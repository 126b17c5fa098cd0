/**
 * Scheduled mode for a described service (`--service FILE`) on PostgreSQL: its world is the
 * description's SQL (`../database/pg-service-world.ts`), its answers the description's rules, and
 * it is started through its protocol driver with the proxy's URL in place of the database's.
 */
import type { RunOptions } from '../../../types/options.ts';
import type { ModeRunner } from '../../mode-runner.ts';
import { pgServiceWorld } from '../database/pg-service-world.ts';
import { ServiceConnection } from '../service-connection.ts';
import type { ServicePlugin } from '../service-plugin.ts';
import { type PgServiceSpec, pgServiceScheduledRunner } from './service-scheduled-mode.ts';

/** `plugin`, a service on PostgreSQL, as scheduled mode takes it. */
export function describedServiceSpec(plugin: ServicePlugin): PgServiceSpec {
  return {
    world: pgServiceWorld(plugin.service),
    answers: plugin.service.answers,
    open: (databaseUrl) => new ServiceConnection(plugin, () => databaseUrl).ready(),
  };
}

/** The scheduled runner of `plugin`, a service on PostgreSQL. */
export function describedServiceScheduledRunner(
  plugin: ServicePlugin,
  options: RunOptions,
): Promise<ModeRunner> {
  return pgServiceScheduledRunner(describedServiceSpec(plugin), options);
}
