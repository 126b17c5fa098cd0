/**
 * Picks the service database's engine from the description: the one place that knows both.
 */
import type { OneModeOptions } from '../../../types/options.ts';
import type { ServicePlugin } from '../service-plugin.ts';
import { PgServiceDatabase } from './pg-service-database.ts';
import type { ServiceDatabase } from './service-database.ts';
import { SqliteServiceDatabase } from './sqlite-service-database.ts';

/** Makes the database `plugin`'s description asks for, its setup run. */
export function openServiceDatabase(
  plugin: ServicePlugin,
  options: Pick<OneModeOptions, 'fixture' | 'databaseUrl' | 'callTimeoutMs'>,
): Promise<ServiceDatabase> {
  if (plugin.service.database.engine === 'postgres') return PgServiceDatabase.open(plugin, options);
  return Promise.resolve(new SqliteServiceDatabase(plugin, options.fixture));
}
