/**
 * The runner's line to its service: opened once, through the description's protocol driver, with
 * where its database is (a SQLite file's path, a PostgreSQL URL) in the environment; opened again before the next run when the last one
 * left it unusable (a call hung or the service died), so one broken run does not fail the rest.
 */
import { dirname, resolve } from 'node:path';
import { pluginOperation } from '../../handlers/plugin.ts';
import type { LaunchSpec, ProtocolClient } from './protocol.ts';
import { protocolNamed } from './protocols.ts';
import type { ServiceEngine } from './service-description.ts';
import type { ServicePlugin } from './service-plugin.ts';

/** Default `readyTimeoutMs`. */
export const READY_TIMEOUT_MS = 10_000;

/** Default `database.env`, by engine. */
export const DATABASE_ENV: Readonly<Record<ServiceEngine, string>> = {
  sqlite: 'DATABASE_PATH',
  postgres: 'DATABASE_URL',
};

/** A service client, restarted on demand. */
export class ServiceConnection {
  private client: ProtocolClient | undefined;
  private broken = false;

  constructor(
    private readonly plugin: ServicePlugin,
    /**
     * Where the service's database is, read at every start: it may move between runs (a
     * PostgreSQL reset that copied the template), and a proxy may stand in front of it.
     */
    private readonly databaseLocation: () => string,
  ) {}

  /** A working client: the open one, or a new one when there is none or it broke. */
  async ready(): Promise<ProtocolClient> {
    if (this.client && !this.broken) return this.client;
    await this.close();
    const d = this.plugin.service;
    const driver = protocolNamed(d.protocol.name);
    // load-service.ts checked the name; a driver gone since is a fault of ours.
    if (!driver) throw new Error(`no protocol driver "${d.protocol.name}"`);
    this.client = await driver.open({
      launch: launchOf(this.plugin, this.databaseLocation()),
      options: d.protocol,
      source: this.plugin.source,
      argumentNames: pluginOperation(this.plugin).fields.map((f) => f.name),
    });
    this.broken = false;
    return this.client;
  }

  /** Notes that the client cannot be trusted for another run (a send failed, a call hung). */
  markBroken(): void {
    this.broken = true;
  }

  /** Stops the service, if it runs. Safe to call twice. */
  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.close();
  }
}

/** How to start the service: the description's command, in its folder, with its database's location. */
export function launchOf(plugin: ServicePlugin, databaseLocation: string): LaunchSpec {
  const d = plugin.service;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return {
    command: d.command,
    args: d.args,
    cwd: resolve(dirname(plugin.source), d.cwd ?? '.'),
    env: {
      ...env,
      ...d.env,
      [d.database.env ?? DATABASE_ENV[d.database.engine]]: databaseLocation,
    },
    readyTimeoutMs: d.readyTimeoutMs ?? READY_TIMEOUT_MS,
  };
}
