/**
 * The service's process: started in a process group of its own, so stopping it stops whatever
 * it started too (a shell script's child, a reloader's worker); stopped on `stop()`, on Ctrl-C
 * and SIGTERM (`interrupt.ts`) and, as a last resort, when this process exits; after a SIGKILL of
 * this process, by the next receiptcheck's sweep of the temp directory (`noteProcessGroup`). Its
 * output is kept (the last lines), so a service that dies or never gets ready is reported in its
 * own words.
 *
 * An HTTP service is spoken to over a port, so its stdin is closed and both its streams are kept.
 * An MCP server over stdio (`mcp-stdio-transport.ts`) is spoken to over its stdin and stdout: with
 * `pipeStdio`, stdin is piped and stdout left to the protocol, and only stderr is kept.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { ReceiptcheckError } from '../../errors.ts';
import { onInterrupt } from '../runtime/interrupt.ts';
import { makeTempDir, noteProcessGroup, removeTempDir } from '../runtime/temp-dirs.ts';
import type { LaunchSpec } from './protocol.ts';

/** How long a stopped service may take to exit after SIGTERM before SIGKILL, in ms. */
export const STOP_GRACE_MS = 2_000;

/** How many of the service's last output lines an error quotes. */
const TAIL_LINES = 5;

const running = new Set<ChildProcess>();
let exitHooked = false;

/** The process ids of the services this process started and that still run: what a Ctrl-C must stop. */
export function servicePids(): number[] {
  return [...running].flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
}

/** How a service process is started. */
export interface ServiceProcessOptions {
  /** Pipe stdin and leave stdout to the caller (the protocol's channel); keep only stderr. */
  readonly pipeStdio?: boolean;
}

/** A started service process. */
export class ServiceProcess {
  private readonly child: ChildProcess;
  private readonly tail: string[] = [];
  /** Settles when the process has ended (exited, or could not be started). */
  readonly exited: Promise<void>;
  /** `true` once the process runs, `false` when it could not be started; never rejects. */
  readonly spawned: Promise<boolean>;
  private exitText: string | undefined;
  private readonly unregister: () => void;
  /** Where its process group is noted for a sweep after this process's SIGKILL (`temp-dirs.ts`). */
  private readonly groupDir: string;

  constructor(
    readonly launch: LaunchSpec,
    private readonly source: string,
    options: ServiceProcessOptions = {},
  ) {
    this.child = spawn(launch.command, [...launch.args], {
      cwd: launch.cwd,
      env: { ...launch.env },
      detached: true,
      stdio: [options.pipeStdio ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    running.add(this.child);
    hookExit();
    this.unregister = onInterrupt(() => this.stop());
    const kept = options.pipeStdio ? [this.child.stderr] : [this.child.stdout, this.child.stderr];
    for (const stream of kept) {
      stream?.setEncoding('utf8');
      stream?.on('data', (text: string) => this.keep(text));
    }
    // A write to a service that has gone is reported by its exit, not as an unhandled error.
    this.child.stdin?.on('error', () => {});
    // Noted where the next receiptcheck looks, should this process die by SIGKILL and leave it.
    this.groupDir = makeTempDir('group');
    this.spawned = new Promise((resolve) => {
      this.child.once('spawn', () => {
        if (this.child.pid !== undefined) noteProcessGroup(this.groupDir, this.child.pid);
        resolve(true);
      });
      this.child.once('error', () => resolve(false));
    });
    this.exited = new Promise((resolve) => {
      const done = (why: string) => {
        this.exitText ??= why;
        running.delete(this.child);
        resolve();
      };
      this.child.once('error', (e) => done(`could not be started: ${e.message}`));
      this.child.once('exit', (code, signal) =>
        done(signal ? `was stopped by ${signal}` : `exited with code ${code}`),
      );
    });
  }

  /** Why the process ended, when it has: `exited with code 1`, `could not be started: …`. */
  get ended(): string | undefined {
    return this.exitText;
  }

  /** Its stdin, with `pipeStdio`. */
  get stdin(): Writable | null {
    return this.child.stdin;
  }

  /** Its stdout, left unread, with `pipeStdio`. */
  get stdout(): Readable | null {
    return this.child.stdout;
  }

  /** The last lines it wrote, joined by ` | `, for error messages. */
  output(): string {
    return this.tail.join(' | ');
  }

  /** An `E_SERVICE_START` error: what went wrong, the process's end, and its last words. */
  startError(what: string): ReceiptcheckError {
    const end = this.exitText ? `; the service ${this.exitText}` : '';
    const said = this.tail.length > 0 ? `; it said: ${this.output()}` : '';
    return new ReceiptcheckError(
      'E_SERVICE_START',
      `service ${this.source} (${this.launch.command}): ${what}${end}${said}`,
    );
  }

  /** Stops the process group: SIGTERM, then SIGKILL after `STOP_GRACE_MS`. Safe to call twice. */
  async stop(): Promise<void> {
    if (this.exitText === undefined) {
      signalGroup(this.child, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(this.child, 'SIGKILL'), STOP_GRACE_MS);
      await this.exited;
      clearTimeout(timer);
    }
    // Whatever the service started and left in its group goes too, and is gone when this returns.
    signalGroup(this.child, 'SIGKILL');
    await groupGone(this.child, STOP_GRACE_MS);
    removeTempDir(this.groupDir);
    this.unregister();
  }

  private keep(text: string): void {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      this.tail.push(line.trim());
      if (this.tail.length > TAIL_LINES) this.tail.shift();
    }
  }
}

/**
 * Waits until no process of `child`'s group is left, at most `limitMs`: a SIGKILL is sent at
 * once, but a killed process (a compiler service the server started, say) is gone only a moment
 * later, and `stop()` promises nothing of the service still runs.
 */
async function groupGone(child: ChildProcess, limitMs: number): Promise<void> {
  if (child.pid === undefined) return;
  const until = performance.now() + limitMs;
  while (performance.now() < until) {
    try {
      process.kill(-child.pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

/** Kills every service still running when this process exits (an uncaught error, `exit()`). */
function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const child of running) signalGroup(child, 'SIGKILL');
  });
}
