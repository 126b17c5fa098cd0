/**
 * What this process keeps for a next runner after a runner closes (the idle PostgreSQL database
 * and its connections, the embedded server), and how to let it go when no runner will come. A
 * command of the CLI is one check: when it is done, `releaseKept()` lets everything go at once, so
 * the process exits with its verdict rather than when the keeps time out (the embedded server's
 * process keeps the event loop alive until it stops). A program that calls the API keeps the
 * speed-up between its checks; keeps time out on their own there.
 */

const releases: (() => Promise<void>)[] = [];

/** Registers `release` for `releaseKept`; the returned function unregisters it. */
export function keptForNext(release: () => Promise<void>): () => void {
  releases.push(release);
  return () => {
    const i = releases.indexOf(release);
    if (i >= 0) releases.splice(i, 1);
  };
}

/**
 * Lets everything kept go, the last kept first (an idle database is dropped before the server it
 * lives on stops). A release that fails is passed over: nothing kept is worth a failed command.
 */
export async function releaseKept(): Promise<void> {
  while (releases.length > 0) await (releases.pop() as () => Promise<void>)().catch(() => {});
}
