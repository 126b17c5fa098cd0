/**
 * The adapter kit's HTTP driver: replies map onto outcomes (each status both ways: what it is,
 * and that another status is not it), an unknown status is an unexpected error, and a call ends
 * only when the work an app does after responding has settled (shown failing without that wait).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { outcome } from '../../model/outcome.ts';
import { type HttpReply, outcomeOfReply, PendingWork, sendHttp } from './http-driver.ts';

const RESULT = { id: 1, intervalMinutes: 30, version: 2 };
const mapping = { result: (body: unknown) => (body as { result: object }).result };
const reply = (statusCode: number, body: unknown, headers = {}): HttpReply => ({
  statusCode,
  headers,
  body,
});

describe('outcomeOfReply', () => {
  it('2xx is ok: replayed only when the replay header says true', () => {
    expect(outcomeOfReply(reply(200, { result: RESULT }), mapping)).toEqual(outcome.fresh(RESULT));
    const replayed = reply(200, { result: RESULT }, { 'idempotent-replayed': 'true' });
    expect(outcomeOfReply(replayed, mapping)).toEqual(outcome.replayed(RESULT));
    const other = reply(201, { result: RESULT }, { 'x-replay': 'true' });
    expect(outcomeOfReply(other, { ...mapping, replayHeader: 'x-replay' })).toEqual(
      outcome.replayed(RESULT),
    );
    expect(outcomeOfReply(other, mapping)).toEqual(outcome.fresh(RESULT));
  });

  it('maps the default statuses onto refusals, key reuse and error', () => {
    const of = (status: number, body: unknown = {}) => outcomeOfReply(reply(status, body), mapping);
    expect(of(403)).toEqual(outcome.refused('forbidden'));
    expect(of(404)).toEqual(outcome.refused('unavailable'));
    expect(of(409)).toEqual(outcome.refused('conflict'));
    expect(of(422)).toEqual(outcome.keyReuse());
    expect(of(500, { error: 'store down' })).toEqual(outcome.error('store down'));
    expect(of(503, 'busy')).toEqual(outcome.error('busy'));
  });

  it("a plugin's table adds or overrides statuses; an unknown status throws", () => {
    const statuses = { 417: () => outcome.keyReuse(), 409: () => outcome.refused('forbidden') };
    expect(outcomeOfReply(reply(417, {}), { ...mapping, statuses })).toEqual(outcome.keyReuse());
    expect(outcomeOfReply(reply(409, {}), { ...mapping, statuses })).toEqual(
      outcome.refused('forbidden'),
    );
    expect(() => outcomeOfReply(reply(417, { x: 1 }), mapping)).toThrow(
      'unexpected HTTP 417: {"x":1}',
    );
  });
});

describe('sendHttp: when a call ends', () => {
  /**
   * An app that answers first and stores afterwards, once `stored` opens, as a library with a
   * fire-and-forget hook on `send` does; the store is tracked in `work` when there is one.
   */
  function storeAfterResponding(
    work: PendingWork | undefined,
    opened: Promise<void>,
    stored: string[],
  ) {
    return (req: IncomingMessage, res: ServerResponse) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ result: RESULT, url: req.url }));
      const store = async () => {
        await opened;
        stored.push('receipt');
      };
      if (work) void work.track(store);
      else void store();
    };
  }

  it('waits for the work tracked after the response', async () => {
    const work = new PendingWork();
    const stored: string[] = [];
    const later = new Promise<void>((resolve) => setTimeout(resolve, 5));
    const answer = await sendHttp(
      storeAfterResponding(work, later, stored),
      { method: 'POST', url: '/x', body: { a: 1 } },
      { ...mapping, afterResponse: work },
    );
    expect(answer).toEqual(outcome.fresh(RESULT));
    expect(stored).toEqual(['receipt']);
    expect(work.idle).toBe(true);
  });

  it('without the tracked work, the call ends before the store has written', async () => {
    const stored: string[] = [];
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    const app = storeAfterResponding(undefined, opened, stored);
    await sendHttp(app, { method: 'POST', url: '/x' }, mapping);
    expect(stored).toEqual([]);
    open();
    await opened;
    await Promise.resolve();
    expect(stored).toEqual(['receipt']);
  });

  it('also waits for work that settling work starts (a failed store, then a delete)', async () => {
    const work = new PendingWork();
    const log: string[] = [];
    const app = (_req: IncomingMessage, res: ServerResponse) => {
      res.end('');
      work
        .track(async () => {
          await new Promise<void>((resolve) => setTimeout(resolve, 1));
          throw new Error('store failed');
        })
        .catch(() =>
          work.track(async () => {
            await new Promise<void>((resolve) => setTimeout(resolve, 1));
            log.push('deleted');
          }),
        );
    };
    const answer = await sendHttp(
      app,
      { method: 'POST', url: '/x' },
      { result: () => ({}), afterResponse: work },
    );
    expect(answer).toEqual(outcome.fresh({}));
    expect(log).toEqual(['deleted']);
  });
});
