/**
 * What the server spends a PostgreSQL check's time on, statement by statement: starts an embedded
 * server with `pg_stat_statements` (nested statements too, planning timed), runs `checkHandler` on
 * it as on a user's server, and prints the statements by server time a run (planning and
 * execution, in ms), with their calls, mean and worst execution time. Client-side timing cannot
 * tell a statement's planning from its execution or from the wait for its answer; this can. A
 * user's server keeps no databases between checks, so each check makes its template afresh: what
 * ran once (making the template and the run database) is left out.
 *
 *   npx tsx tools/pg-statements.ts [sequential|concurrent|scheduled] [runs] [handler] [seed] [top]
 */
import pg from 'pg';
import { checkHandler } from '../src/api/check-handler.ts';
import { startEmbeddedServer } from '../src/execute/postgres/embedded-server.ts';
import type { Mode } from '../src/types/mode.ts';

const mode = (process.argv[2] ?? 'sequential') as Mode;
const runs = Number(process.argv[3] ?? 300);
const handler = process.argv[4] ?? 'pg-reference';
const seed = Number(process.argv[5] ?? 42);
const top = Number(process.argv[6] ?? 30);

const server = await startEmbeddedServer([
  'shared_preload_libraries=pg_stat_statements',
  'pg_stat_statements.track=all',
  'pg_stat_statements.track_planning=on',
]);
try {
  const url = `postgres://${server.user}:${server.password}@${server.host}:${server.port}/postgres`;
  process.env.RECEIPTCHECK_DATABASE_URL = url;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('CREATE EXTENSION pg_stat_statements');
    // A warm-up check on another seed, then the measured one from a clean count.
    await checkHandler({ handler, mode, runs: 20, seed: seed + 1000 });
    await admin.query('SELECT pg_stat_statements_reset()');
    const result = await checkHandler({ handler, mode, runs, seed });
    const { rows } = await admin.query<Record<string, string>>(
      `SELECT calls, toplevel,
         round(((total_plan_time + total_exec_time) / $1)::numeric, 3) AS per_run,
         round((total_plan_time / $1)::numeric, 3) AS plan_per_run,
         round(mean_exec_time::numeric, 3) AS mean, round(max_exec_time::numeric, 3) AS max,
         left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS text
       FROM pg_stat_statements
       WHERE calls > 1 AND query NOT LIKE '%pg_stat_statements%' AND query !~* '^(CREATE|DROP) DATABASE'
       ORDER BY total_plan_time + total_exec_time DESC LIMIT $2`,
      [result.runs, top],
    );
    console.log(
      `${mode} ${handler} seed ${seed}: ${result.verdict}, ${result.runs} runs; ms of server time a run (planning included), calls, mean and worst execution ms; n = nested`,
    );
    for (const r of rows)
      console.log(
        `${String(r.per_run).padStart(7)} (plan ${String(r.plan_per_run).padStart(6)}) ${String(r.calls).padStart(6)} ${String(r.mean).padStart(7)} ${String(r.max).padStart(8)} ${r.toplevel ? 'T' : 'n'} ${r.text}`,
      );
  } finally {
    await admin.end();
  }
} finally {
  await server.stop();
}
