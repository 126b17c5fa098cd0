/**
 * An MCP client transport over a service's stdin and stdout, for the SDK's `Client`: newline-
 * delimited JSON-RPC, framed by the SDK's own `ReadBuffer` and `serializeMessage`. It is not the
 * SDK's `StdioClientTransport` because that one spawns the server in the harness's process
 * group and kills only its pid: a server started through `npx`, a shell script or a reloader
 * would leave its real process behind. Here the server is a `ServiceProcess` with piped stdio,
 * as an HTTP service is one: a process group of its own, stopped whole on `close()`, on Ctrl-C
 * and SIGTERM and when this process exits; its stderr kept (the last lines) so a server that
 * dies or never answers is reported in its own words.
 */
import type { ReadBuffer as ReadBufferType } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ReceiptcheckError } from '../../errors.ts';
import type { LaunchSpec } from './protocol.ts';
import { ServiceProcess } from './service-process.ts';

/** The SDK's stdio framing, loaded with the SDK (an optional package: `mcp-protocol.ts`). */
export interface StdioFraming {
  readonly ReadBuffer: new () => ReadBufferType;
  readonly serializeMessage: (message: JSONRPCMessage) => string;
}

/** A transport that starts the service's process and speaks MCP over its stdio. */
export class ProcessStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private service: ServiceProcess | undefined;
  private readonly buffer: ReadBufferType;

  constructor(
    private readonly launch: LaunchSpec,
    private readonly source: string,
    private readonly framing: StdioFraming,
  ) {
    this.buffer = new framing.ReadBuffer();
  }

  /** Why the process ended, when it has: `exited with code 1`, `could not be started: …`. */
  get ended(): string | undefined {
    return this.service?.ended;
  }

  /** Spawns the server; resolves once it runs, rejects when it cannot be started. */
  async start(): Promise<void> {
    if (this.service) throw new Error('the transport was started already');
    const service = new ServiceProcess(this.launch, this.source, { pipeStdio: true });
    this.service = service;
    service.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
    void service.exited.then(() => this.onclose?.());
    if (!(await service.spawned)) throw service.startError(service.ended ?? 'could not be started');
  }

  /** Writes one message to the server's stdin. */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.service?.stdin;
    if (!stdin || this.ended !== undefined)
      return Promise.reject(new Error(`the service ${this.ended ?? 'is not running'}`));
    return new Promise((resolve) => {
      if (stdin.write(this.framing.serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Stops the server's process group (`ServiceProcess.stop`). Safe to call twice. */
  async close(): Promise<void> {
    await this.service?.stop();
  }

  /** An `E_SERVICE_START` error: what went wrong, the process's end, and its last words. */
  startError(what: string): ReceiptcheckError {
    if (this.service) return this.service.startError(what);
    return new ReceiptcheckError(
      'E_SERVICE_START',
      `service ${this.source} (${this.launch.command}): ${what}`,
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
}
