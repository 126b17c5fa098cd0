/**
 * Server-assigned ids the model does not predict (`CreatedRows.ids: 'opaque'`, the contract's
 * default): a handler whose invoice ids follow no rule the model knows holds the contract in
 * every deterministic mode, while the same handler is a failure under `create-once`, which
 * predicts SQLite's rowid rule; and opaque ids hide neither a double create nor a replay that
 * returns another invoice's id, whether the ids are numbers or text (UUIDs).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkHandler } from '../src/api/check-handler.ts';
import { loadCaseFile } from '../src/api/load-case-file.ts';
import { runCase } from '../src/api/run-case.ts';
import { renderTimeline } from '../src/api/timeline-page.ts';
import { stopEmbeddedPostgres } from '../src/execute/postgres/server.ts';
import type { CallEvent } from '../src/model/events.ts';
import type { OperationSpec } from '../src/model/operation.ts';
import { createOnce, createOnceOpaque } from '../src/model/operations/create-once.ts';
import { registerOperation } from '../src/model/operations/index.ts';
import { outcome, SERVER_ASSIGNED, sameOutcome } from '../src/model/outcome.ts';
import { initialState } from '../src/model/state.ts';
import { run } from '../src/model/step.ts';
import { formatCaseFile, parseCaseFile } from '../src/report/case-file.ts';
import { counterexampleToCase } from '../src/report/counterexample-case.ts';
import { formatCounterexample } from '../src/report/format-counterexample.ts';
import { buildTimeline } from '../src/report/timeline/build-timeline.ts';
import { caseFileTimelineCase } from '../src/report/timeline/case-timeline.ts';
import { renderTimelineHtml } from '../src/report/timeline/render-timeline-html.ts';

const handler = (name: string) =>
  fileURLToPath(new URL(`./handlers/opaque-ids/${name}.ts`, import.meta.url));
const invoice = (requestId: string, amount: number): CallEvent => ({
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId, customerId: 1, amount },
});

describe('opaque server-assigned ids', () => {
  it('the model leaves them open in results and receipts, and keys its own rows apart', () => {
    registerOperation(createOnceOpaque);
    const fixture = { ...createOnceOpaque.fixture, operation: createOnceOpaque.name };
    const { state, outcomes } = run(initialState(fixture, createOnceOpaque), [
      invoice('a', 5),
      invoice('b', 5),
    ]);
    expect(outcomes.map((o) => o.kind === 'ok' && o.result.invoiceId)).toEqual([
      SERVER_ASSIGNED,
      SERVER_ASSIGNED,
    ]);
    expect(state.created.size).toBe(2);
  });

  it.each(['sequential', 'scheduled'] as const)(
    'a handler with ids of its own holds in %s mode',
    async (mode) => {
      const r = await checkHandler({ handler: handler('scrambled-ids'), mode, runs: 120 });
      expect(r.counterexample?.failures ?? []).toEqual([]);
      expect(r.verdict).toBe('passed');
    },
  );

  it('a create that crashed after its commit is held to the id in its receipt', async () => {
    // Seed 3 crashes a create after its commit at run 124; the answer never came, so the id is
    // known only from the receipt and the invoice row.
    const r = await checkHandler({
      handler: handler('rowid-under-opaque'),
      mode: 'scheduled',
      seed: 3,
    });
    expect(r.counterexample?.failures ?? []).toEqual([]);
    expect(r.verdict).toBe('passed');
  });

  it('the same ids fail where the operation predicts them (create-once, rowid rule)', () => {
    registerOperation(createOnceOpaque);
    const actual = outcome.fresh({ invoiceId: 17, customerId: 1, amount: 5 });
    const expectedBy = (spec: OperationSpec) =>
      run(initialState({ ...spec.fixture, operation: spec.name }, spec), [invoice('a', 5)])
        .outcomes[0];
    const predicted = expectedBy(createOnce);
    const open = expectedBy(createOnceOpaque);
    expect(predicted && sameOutcome(predicted, actual)).toBe(false);
    expect(open && sameOutcome(open, actual)).toBe(true);
    // The server's id may be anything but the rest of the result may not.
    expect(
      open && sameOutcome(open, outcome.fresh({ invoiceId: 17, customerId: 1, amount: 6 })),
    ).toBe(false);
  });

  it('a double create is still found, whatever the ids', async () => {
    const r = await checkHandler({
      handler: handler('scrambled-ids-double-create'),
      mode: 'sequential',
      runs: 200,
    });
    expect(r.verdict).toBe('failed');
    const kinds = r.counterexample?.failures.map((f) => f.kind) ?? [];
    expect(kinds.some((k) => k === 'snapshot' || k === 'invariant')).toBe(true);
  });

  it.each(['sequential', 'scheduled'] as const)(
    'a handler whose ids are random UUIDs (text) holds in %s mode',
    async (mode) => {
      const r = await checkHandler({ handler: handler('uuid-ids'), mode, runs: 120 });
      expect(r.counterexample?.failures ?? []).toEqual([]);
      expect(r.verdict).toBe('passed');
    },
  );

  it('a double create is found with UUID ids too, and its report names the extra invoice by its UUID', async () => {
    const r = await checkHandler({
      handler: handler('uuid-ids-double-create'),
      mode: 'sequential',
      runs: 200,
    });
    expect(r.verdict).toBe('failed');
    const cx = r.counterexample;
    if (!cx) throw new Error('no counterexample');
    expect(cx.failures.some((f) => f.kind === 'snapshot' || f.kind === 'invariant')).toBe(true);
    expect(formatCounterexample(cx)).toMatch(/invoice [0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it("its report, in text and on the page, shows the ids the handler answered, not the model's placeholder", async () => {
    const r = await checkHandler({
      handler: handler('scrambled-ids-double-create'),
      mode: 'sequential',
      runs: 200,
    });
    const cx = r.counterexample;
    if (!cx) throw new Error('no counterexample');
    // Only invariants and the database fail: every call's answer passed as the model's.
    expect(cx.failures.every((f) => f.kind !== 'outcome')).toBe(true);
    const ids = (cx.answers ?? []).flatMap((a) =>
      a.observed.kind === 'ok' ? [a.observed.result.invoiceId] : [],
    );
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => typeof id === 'number')).toBe(true);
    const text = formatCounterexample(cx);
    const page = renderTimeline(cx);
    const saved = renderTimelineHtml(
      buildTimeline(
        caseFileTimelineCase(
          parseCaseFile(formatCaseFile(counterexampleToCase(cx)), 'cx.json'),
          cx.spec,
        ),
      ),
    );
    for (const shown of [text, page, saved]) {
      expect(shown).not.toMatch(/server-assigned/);
      expect(shown).toContain(`invoiceId ${ids[0]}`);
    }
  });
});

describe('opaque server-assigned ids on PostgreSQL', () => {
  afterAll(() => stopEmbeddedPostgres());

  it('a create that crashed after its commit holds (SERIAL ids, scheduled mode)', async () => {
    const c = loadCaseFile(
      fileURLToPath(new URL('./handlers/opaque-ids/pg-crash-after-commit.json', import.meta.url)),
    );
    const r = await runCase(c, { handler: handler('pg-serial-ids') });
    expect(r.failures).toEqual([]);
    expect(r.verdict).toBe('passed');
  }, 120_000);
});
