/**
 * The crash signal: what a lane's plugin code meets once the scheduler crashed the lane (its
 * worker, connection or backend is gone), on either engine. Nothing the plugin does after it is
 * real, so the harness never counts it as an escape.
 */
import { disregardEscapes } from '../runtime/contain/escapes.ts';

/** Thrown into the handler after its lane crashed; nothing it does afterwards is real. */
export class CrashSignal extends Error {
  constructor() {
    // No stack: what a crashed call comes to is thrown away, yet it went through `unexpectedOf`,
    // which had every crash's stack formatted (source maps included under tsx).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super('receiptcheck: this worker crashed here; the connection is gone');
    Error.stackTraceLimit = limit;
    this.name = 'ReceiptcheckCrash';
  }
}

// A handler may go on after its crash and meet this signal where nobody catches it: that is the
// harness's crash, not something the handler let escape (`contain/escapes.ts`), on any thread.
disregardEscapes((thrown) => thrown instanceof CrashSignal);
