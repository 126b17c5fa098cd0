/**
 * An MCP client transport over a service's stdin and stdout, for the SDK's `Client`: newline-
 * delimited JSON-RPC, framed by the SDK's own `ReadBuffer` and `serializeMessage`. It is not the
 * SDK's `StdioClientTransport` because that one spawns the server in the harness's process
 * group and kills only its pid: a server started through `npx`, a shell script or a reloader
 * would leave its real process behind. Here the server gets a process group of its own, stopped
 * whole on `close()`, on Ctrl-C and SIGTERM (`interrupt.ts`) and when this process exits, as
 * `service-process.ts` stops an HTTP service. Its stderr is kept (the last lines) so a server
 * that dies or never answers is reported in its own words.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { ReadBuffer as ReadBufferType } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ReceiptcheckError } from '../../errors.ts';
import { onInterrupt } from '../runtime/interrupt.ts';
import type { LaunchSpec } from './protocol.ts';

/** How long a stopped server may take to exit after SIGTERM before SIGKILL, in ms. */
const STOP_GRACE_MS = 2_000;

/** How many of the server's last stderr lines an error quotes. */
const TAIL_LINES = 5;

/** The SDK's stdio framing, loaded with the SDK (an optional package: `mcp-protocol.ts`). */
export interface StdioFraming {
  readonly ReadBuffer: new () => ReadBufferType;
  readonly serializeMessage: (message: JSONRPCMessage) => string;
}

const running = new Set<ChildProcess>();
let exitHooked = false;

/** The process ids of the MCP servers this process started over stdio that still run. */
export function stdioServerPids(): number[] {
  return [...running].flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
}

/** A transport that starts the service's process and speaks MCP over its stdio. */
export class ProcessStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private exitText: string | undefined;
  private readonly tail: string[] = [];
  private readonly buffer: ReadBufferType;
  private unregister: () => void = () => {};

  constructor(
    private readonly launch: LaunchSpec,
    private readonly source: string,
    private readonly framing: StdioFraming,
  ) {
    this.buffer = new framing.ReadBuffer();
  }

  /** Why the process ended, when it has: `exited with code 1`, `could not be started: …`. */
  get ended(): string | undefined {
    return this.exitText;
  }

  /** Spawns the server; resolves once it runs, rejects when it cannot be started. */
  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error('the transport was started already'));
    const child = spawn(this.launch.command, [...this.launch.args], {
      cwd: this.launch.cwd,
      env: { ...this.launch.env },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    running.add(child);
    hookExit();
    this.unregister = onInterrupt(() => this.close());
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => this.keep(text));
    child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
    // A write to a server that has gone is reported by its exit, not as an unhandled error.
    child.stdin?.on('error', () => {});
    this.exited = new Promise((resolve) => {
      const done = (why: string) => {
        this.exitText ??= why;
        running.delete(child);
        this.unregister();
        resolve();
        this.onclose?.();
      };
      child.once('error', (e) => done(`could not be started: ${e.message}`));
      child.once('exit', (code, signal) =>
        done(signal ? `was stopped by ${signal}` : `exited with code ${code}`),
      );
    });
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (e) => reject(this.startError(`could not be started: ${e.message}`)));
    });
  }

  /** Writes one message to the server's stdin. */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.exitText !== undefined)
      return Promise.reject(new Error(`the service ${this.exitText ?? 'is not running'}`));
    return new Promise((resolve) => {
      if (stdin.write(this.framing.serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Stops the process group: SIGTERM, then SIGKILL after `STOP_GRACE_MS`. Safe to call twice. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    if (this.exitText === undefined) {
      signalGroup(child, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), STOP_GRACE_MS);
      await this.exited;
      clearTimeout(timer);
    }
    // Whatever the server started and left in its group goes too.
    signalGroup(child, 'SIGKILL');
    this.unregister();
  }

  /** An `E_SERVICE_START` error: what went wrong, the process's end, and its last words. */
  startError(what: string): ReceiptcheckError {
    const end = this.exitText ? `; the service ${this.exitText}` : '';
    const said = this.tail.length > 0 ? `; it said: ${this.tail.join(' | ')}` : '';
    return new ReceiptcheckError(
      'E_SERVICE_START',
      `service ${this.source} (${this.launch.command}): ${what}${end}${said}`,
    );
  }

  private receive(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (thrown) {
      // A message past the SDK's buffer limit: the server cannot be followed any more.
      this.onerror?.(thrown instanceof Error ? thrown : new Error(String(thrown)));
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (thrown) {
        // A line that is no JSON-RPC (a stray console.log on stdout): said, then skipped.
        this.onerror?.(thrown instanceof Error ? thrown : new Error(String(thrown)));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  private keep(text: string): void {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      this.tail.push(line.trim());
      if (this.tail.length > TAIL_LINES) this.tail.shift();
    }
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

/** Kills every server still running when this process exits (an uncaught error, `exit()`). */
function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const child of running) signalGroup(child, 'SIGKILL');
  });
}
