/**
 * Runs the CLI in this process on an in-memory io: what the command tests use to read exit
 * codes and output without spawning a process.
 */
import { memoryIo } from './io.ts';
import { main } from './main.ts';

/** `receiptcheck ...argv`: its exit code, and everything it wrote to stdout and stderr. */
export async function runCli(
  ...argv: string[]
): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await main(argv, io);
  return { code, out: io.out.join(''), err: io.err.join('') };
}
