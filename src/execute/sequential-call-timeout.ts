/**
 * The per-call time limit for calls run in this thread (sequential mode). A call returning a
 * promise is raced against a timer and abandoned when it does not settle in time. A synchronous
 * call cannot be interrupted from the same thread, so one that ran too long is reported after it
 * returns. Either way the hang is reported through `onHang` as `E_CALL_TIMEOUT`, which stops the
 * check with exit code 2: a hang is a harness or plugin fault, not a contract finding.
 * (Concurrent mode runs calls on workers and stops a hung worker: see execute/concurrent/.)
 */
import { ReceiptcheckError } from '../errors.ts';
import type { HandlerPlugin } from '../handlers/plugin.ts';

/** `plugin` with its `call` limited to `timeoutMs`; `onHang` receives the error before it is thrown. */
export function withCallTimeout(
  plugin: HandlerPlugin,
  timeoutMs: number,
  onHang: (error: ReceiptcheckError) => void,
): HandlerPlugin {
  // Object.create keeps the plugin's own methods and prototype; only `call` is replaced.
  const limited = Object.create(plugin) as HandlerPlugin;
  const hung = (detail: string): ReceiptcheckError => {
    const error = new ReceiptcheckError(
      'E_CALL_TIMEOUT',
      `handler "${plugin.name}": ${detail}; if the handler is only slow, raise the limit with --call-timeout-ms (callTimeoutMs)`,
    );
    onHang(error);
    return error;
  };
  limited.call = (db, principal, request) => {
    const started = performance.now();
    const returned = plugin.call(db, principal, request);
    if (!(returned instanceof Promise)) {
      const tookMs = Math.round(performance.now() - started);
      if (tookMs > timeoutMs)
        throw hung(
          `a synchronous call took ${tookMs} ms, more than the ${timeoutMs} ms limit (sequential mode cannot interrupt a synchronous call, so it is reported after it returns)`,
        );
      return returned;
    }
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(hung(`call(…) did not settle within the ${timeoutMs} ms limit`)),
        timeoutMs,
      );
      // Not unref'd: a never-settling promise alone would let the process exit mid-check.
    });
    return Promise.race([returned, limit]).finally(() => clearTimeout(timer));
  };
  return limited;
}
