/**
 * Says what a hang means and what to do about it. The contract has no numbered rule for a call
 * that never answers (every rule is about the answer), so the explanation names none: it says
 * what was seen, how the harness stopped it, where to look, and the one setting that moves the
 * line. Pure.
 */
import type { Failure } from '../types/verdict.ts';
import type { Explanation } from './explanation.ts';

/** The explanation of a `hang` failure. */
export function explainHang(failure: Extract<Failure, { kind: 'hang' }>): Explanation {
  const budget = `the call budget of ${failure.limitMs} ms`;
  const what =
    failure.event === undefined
      ? "the plugin's snapshot(db), read after the last step,"
      : failure.event.kind === 'call'
        ? 'the handler'
        : `the plugin's ${failure.event.kind} function`;
  if (failure.how === 'locked')
    return {
      text: `${what} waits on a lock that another connection of the run holds while running nothing (its call had returned), so nothing will ever release it, and it was stopped without waiting out ${budget}. A client waits for an answer to every request: release a session-level lock (pg_advisory_lock) on every path, errors included, or take a transaction-level one (pg_advisory_xact_lock), which COMMIT and ROLLBACK release`,
    };
  const seen = {
    busy: `${what} did not return within ${budget}: its synchronous code was still running and was stopped there`,
    unsettled: `the promise ${what} returned did not settle within ${budget}, and was abandoned`,
    thread: `${what} did not return within ${budget}, so the worker thread running it was stopped`,
  }[failure.how];
  return {
    text: `${seen}. A client waits for an answer to every request, so a call that never answers is a bug whatever it would have said: look for a loop that cannot end (a retry with no limit, a wait for a lock nobody releases) or a promise nothing resolves. If the handler is only slow, raise --call-timeout-ms (callTimeoutMs)`,
  };
}

/** The line a counterexample shows under the step that hung. */
export function hangMark(failure: Extract<Failure, { kind: 'hang' }>): string {
  if (failure.how === 'locked')
    return '✗ waits on a lock an idle connection of the run holds, which nothing will release; the run stopped here';
  const how = {
    busy: 'still running, stopped',
    unsettled: 'its promise never settled',
    thread: 'its worker thread was stopped',
  }[failure.how];
  return `✗ did not return within ${failure.limitMs} ms (${how}); the run stopped here`;
}
