/**
 * A lane worker's inbox: the coordinator's commands, one at a time and in the order sent, taken
 * either from the worker's event loop (a `message` event) or, right after a command is done,
 * from a short wait on shared memory.
 *
 * Why the wait: a command that reaches an idle worker through its event loop wakes an `epoll`,
 * then libuv and the port's dispatch; on the 2-core machine of the bench, with other work on it,
 * that took 79-103 µs at the median (p90 0.7-2.3 ms) from `postMessage` to the worker's listener,
 * where a grant parked on shared memory (`Atomics.wait`) woke in 18-24 µs (p90 0.07-1 ms). So a
 * worker that has just finished a command waits up to `COMMAND_WAIT_MS` on the slot's command
 * count (`Slot.commands`, bumped by the coordinator after each post) and takes the message with
 * `receiveMessageOnPort`; when none comes in time it goes back to its event loop, where the
 * listener takes the next one as before.
 *
 * What a command does is the same whichever way it came. The wait runs from `setImmediate`, after
 * a whole turn of the event loop, so a plugin's microtasks, `process.nextTick`s, immediates, due
 * timers and unhandled rejections from the last command are dealt with before the next command
 * starts, as when the next command came through the loop. A timer that falls due during the wait
 * runs after the command that ended it, as it would if that command had come a little sooner.
 * Sleeping costs nothing; `worker.terminate()` interrupts the wait (a Ctrl-C, a hung lane).
 */
import { type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import { type Command, Slot } from '../protocol.ts';

/** The longest a worker that has just finished a command waits on shared memory for the next, in ms. */
export const COMMAND_WAIT_MS = 3;

/**
 * Carries out the commands that reach `port`, one at a time in order: `carryOut` for each, and
 * `failed` with whatever it throws (the next command still runs).
 */
export function serveCommands(
  port: MessagePort,
  slotBuffer: SharedArrayBuffer,
  carryOut: (command: Command) => Promise<void>,
  failed: (thrown: unknown) => void,
): void {
  const slot = new Int32Array(slotBuffer);
  // One command at a time, even when an async plugin awaits: the next waits for the last.
  let queue: Promise<void> = Promise.resolve();
  /** Commands queued and not yet begun: while there are any, the next is not waited for. */
  let queued = 0;
  const take = (command: Command): void => {
    queued++;
    queue = queue
      .then(() => {
        queued--;
        return carryOut(command);
      })
      .catch(failed)
      .then(() => {
        if (queued === 0) setImmediate(waitForNext);
      });
  };
  const waitForNext = (): void => {
    if (queued > 0) return;
    const command = nextCommand(port, slot, COMMAND_WAIT_MS);
    if (command) take(command);
  };
  port.on('message', take);
}

/** The next command on `port`, waiting up to `waitMs` for the coordinator's count to move; else undefined. */
function nextCommand(port: MessagePort, slot: Int32Array, waitMs: number): Command | undefined {
  const deadline = performance.now() + waitMs;
  for (;;) {
    // Read before looking: a command posted after the look moves the count, so the wait returns.
    const seen = Atomics.load(slot, Slot.commands);
    const received = receiveMessageOnPort(port);
    if (received) return received.message as Command;
    const left = deadline - performance.now();
    if (left <= 0) return undefined;
    Atomics.wait(slot, Slot.commands, seen, left);
  }
}
