/**
 * Measures the two ways a PostgreSQL runner can give each run a fresh database, on the embedded
 * server, with the bundled `pg-reference`'s schema: a new database per run copied from the
 * template (`CREATE DATABASE … TEMPLATE`, each `STRATEGY`, then connect and drop), and the reset
 * the runners use in place (`PostgresSession.reset`: two lanes' sessions cleaned, every table
 * emptied and refilled with what `setup` left, sequences set back). Prints milliseconds per run;
 * docs/modes-and-engines.md and `run-database.ts` quote its figures.
 *
 *   npx tsx tools/pg-reset-measure.ts [runs]
 */
import pg from 'pg';
import { PostgresSession } from '../src/execute/postgres/postgres-session.ts';
import { acquirePostgres, stopEmbeddedPostgres } from '../src/execute/postgres/server.ts';
import reference from '../src/handlers/operations/set-interval/postgres/set-interval-pg-reference.ts';
import { DEFAULT_FIXTURE } from '../src/model/world.ts';

const runs = Number(process.argv[2] ?? 20);

async function main(): Promise<void> {
  const server = await acquirePostgres();
  try {
    const template = await server.createDatabase();
    const setup = new pg.Client(server.connectionFor(template));
    await setup.connect();
    await reference.setup(
      { query: (t, v) => setup.query(t, v as unknown[]) as never },
      DEFAULT_FIXTURE,
    );
    await setup.end();
    const admin = new pg.Client(server.connectionFor('postgres'));
    await admin.connect();
    for (const strategy of ['WAL_LOG', 'FILE_COPY']) {
      const started = performance.now();
      for (let i = 0; i < runs; i++) {
        const name = `${template}_m${i}`;
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY ${strategy}`);
        const c = new pg.Client(server.connectionFor(name));
        await c.connect();
        await c.query('UPDATE automations SET version = version + 1');
        await c.end();
        await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      }
      report(`CREATE DATABASE … TEMPLATE (STRATEGY ${strategy})`, started);
    }
    await admin.end();
    await server.dropDatabase(template);
    const session = await PostgresSession.open(reference, DEFAULT_FIXTURE, undefined);
    try {
      await session.lane(1);
      const started = performance.now();
      for (let i = 0; i < runs; i++) {
        // A lane's face is sealed at every reset: each run asks for it again.
        await (await session.lane(0)).db.query('UPDATE automations SET version = version + 1');
        await session.reset();
      }
      report('reset in place, two lanes (PostgresSession.reset)', started);
    } finally {
      await session.close();
    }
  } finally {
    await server.release();
    await stopEmbeddedPostgres();
  }
}

function report(what: string, started: number): void {
  console.log(`${what}: ${((performance.now() - started) / runs).toFixed(1)} ms per run`);
}

await main();
