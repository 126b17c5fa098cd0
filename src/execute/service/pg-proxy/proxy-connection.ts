/**
 * One client connection through the PostgreSQL proxy, and its own socket to the server. Backend
 * messages go to the client as they come, read on the way by `pg-protocol`'s parser (the backend
 * pid, command tags, errors, ReadyForQuery); an error the owner replaces (`replaceError`) goes as
 * the owner's. Frontend bytes are cut into messages and forwarded in
 * order, except that a statement (a simple Query, or an extended batch up to its Sync) first waits
 * until the previous statement is answered, then for the owner's `beforeStatement`: while either
 * waits, nothing more from this client reaches the server. So the server sees at most one
 * statement of a connection at a time, and only when the owner lets it go.
 */
import net from 'node:net';
import type { BackendMessage, DatabaseError } from 'pg-protocol/dist/messages.js';
import { Parser } from 'pg-protocol/dist/parser.js';
import { BackendFramer, errorResponse } from './backend-frames.ts';
import {
  type BoundValue,
  bindMessage,
  CANCEL_REQUEST_CODE,
  type FrontendFrame,
  FrontendFramer,
  GSSENC_REQUEST_CODE,
  parseMessage,
  queryText,
  SSL_REQUEST_CODE,
  untypedCode,
} from './frontend-frames.ts';
import type { ProxyConnectionInfo, ProxyHooks, ProxyStatement } from './proxy-hooks.ts';

/** Where the server is, and how long connecting to it may take. */
export interface Upstream {
  readonly host: string;
  readonly port: number;
  readonly connectTimeoutMs: number;
}

/** Something forwarded that the server answers with one ReadyForQuery; silent ones are not reported. */
interface Awaited {
  readonly statement?: ProxyStatement;
  readonly commands: string[];
  error?: { readonly code: string; readonly message: string };
}

/** An extended-protocol batch not yet ended by its Sync. */
interface Batch {
  readonly held: FrontendFrame[];
  readonly parsed: string[];
  readonly bound: string[];
  readonly values: BoundValue[];
  gated: boolean;
}

/** The extended-protocol messages that make up a batch (Sync ends it). */
const BATCH_TYPES = new Set(['P', 'B', 'D', 'E', 'C', 'H']);

export class ProxyConnection {
  /** Resolves once both sockets are closed and `connectionClosed` was told. */
  readonly ended: Promise<void>;
  private readonly upstream: net.Socket;
  private readonly framer = new FrontendFramer();
  private readonly parser = new Parser();
  private readonly backendFramer = new BackendFramer();
  private readonly queue: FrontendFrame[] = [];
  private readonly answers: Awaited[] = [];
  private readonly prepared = new Map<string, string>();
  private idleWaiters: (() => void)[] = [];
  private batch: Batch | undefined;
  private pid: number | undefined;
  private pumping = false;
  private closed = false;
  private failure: Error | undefined;

  constructor(
    readonly connection: number,
    private readonly client: net.Socket,
    upstream: Upstream,
    private readonly hooks: ProxyHooks,
  ) {
    this.upstream = net.connect({ host: upstream.host, port: upstream.port });
    this.upstream.setTimeout(upstream.connectTimeoutMs, () =>
      this.close(
        new Error(
          `no connection to ${upstream.host}:${upstream.port} within ${upstream.connectTimeoutMs} ms`,
        ),
      ),
    );
    this.upstream.once('connect', () => this.upstream.setTimeout(0));
    const closes = [this.client, this.upstream].map(
      (socket) => new Promise<void>((resolve) => socket.once('close', () => resolve())),
    );
    this.ended = Promise.all(closes).then(() =>
      this.hooks.connectionClosed?.(this.info, this.failure),
    );
    for (const socket of [this.client, this.upstream]) {
      // Every message goes on at once: with Nagle's algorithm a statement's small write waits for
      // the peer's delayed acknowledgement of the last one, about 40 ms a statement.
      socket.setNoDelay(true);
      socket.on('error', (error) => this.close(error));
      socket.once('close', () => this.close());
    }
    this.client.on('data', (chunk: Buffer) => this.fromClient(chunk));
    this.client.on('end', () => this.upstream.end());
    this.upstream.on('data', (chunk: Buffer) => this.fromServer(chunk));
    this.upstream.on('end', () => this.client.end());
    this.client.on('drain', () => this.upstream.resume());
  }

  /** The connection as the hooks see it now. */
  get info(): ProxyConnectionInfo {
    return { connection: this.connection, pid: this.pid };
  }

  /** Ends both sockets now; `error` is what the owner hears as the reason. */
  close(error?: Error): void {
    if (error && !this.failure && !this.closed) this.failure = error;
    if (this.closed) return;
    this.closed = true;
    this.client.destroy();
    this.upstream.destroy();
    this.wakeIdle();
  }

  private fromClient(chunk: Buffer): void {
    try {
      this.queue.push(...this.framer.push(chunk));
    } catch (error) {
      this.close(error as Error);
      return;
    }
    if (!this.pumping) void this.pump();
  }

  /** Forwards queued messages in order; stops reading the client while a statement waits. */
  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      for (let frame = this.queue.shift(); frame && !this.closed; frame = this.queue.shift()) {
        this.client.pause();
        await this.forward(frame);
      }
    } catch (error) {
      this.close(error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.pumping = false;
      if (!this.closed) this.client.resume();
    }
  }

  private async forward(frame: FrontendFrame): Promise<void> {
    if (frame.type === '') return this.untyped(frame);
    if (BATCH_TYPES.has(frame.type)) return this.batchPart(frame);
    switch (frame.type) {
      case 'Q':
        if (await this.gate({ kind: 'simple', text: queryText(frame), values: [] }))
          this.send(frame);
        return;
      case 'F':
        if (await this.gate({ kind: 'function', text: '', values: [] })) this.send(frame);
        return;
      case 'S':
        return this.sync(frame);
      case 'X':
        this.send(frame);
        this.upstream.end();
        return;
      default:
        // Password and SASL answers, COPY data: parts of an exchange already under way.
        this.send(frame);
    }
  }

  private untyped(frame: FrontendFrame): void {
    const code = untypedCode(frame);
    // The proxy talks plain TCP on the loopback: it declines encryption, and the client goes on plain.
    if (code === SSL_REQUEST_CODE || code === GSSENC_REQUEST_CODE) {
      this.client.write('N');
      return;
    }
    // A startup message is answered by ReadyForQuery once authenticated; a cancel request by nothing.
    if (code !== CANCEL_REQUEST_CODE) this.answers.push({ commands: [] });
    this.send(frame);
  }

  private async batchPart(frame: FrontendFrame): Promise<void> {
    if (!this.batch) this.batch = { held: [], parsed: [], bound: [], values: [], gated: false };
    const batch = this.batch;
    if (frame.type === 'P') {
      const { name, text } = parseMessage(frame);
      this.prepared.set(name, text);
      batch.parsed.push(text);
    } else if (frame.type === 'B') {
      const { statement, values } = bindMessage(frame);
      batch.bound.push(this.prepared.get(statement) ?? '');
      batch.values.push(...values);
    }
    if (batch.gated) return this.send(frame);
    batch.held.push(frame);
    // A Flush asks for answers before the Sync: the batch must go now, or the client would wait forever.
    if (frame.type === 'H') await this.openBatch(batch);
  }

  private async sync(frame: FrontendFrame): Promise<void> {
    const batch = this.batch;
    this.batch = undefined;
    if (!batch) {
      // A lone Sync (after an error, say) runs nothing but is answered by a ReadyForQuery.
      this.answers.push({ commands: [] });
      return this.send(frame);
    }
    if (!batch.gated && !(await this.openBatch(batch))) return;
    this.send(frame);
  }

  /** Gates the batch as one statement, then sends what it held; false if the connection closed. */
  private async openBatch(batch: Batch): Promise<boolean> {
    const text = (batch.bound.length > 0 ? batch.bound : batch.parsed).join(';\n');
    if (!(await this.gate({ kind: 'extended', text, values: [...batch.values] }))) return false;
    batch.gated = true;
    for (const held of batch.held.splice(0)) this.send(held);
    return true;
  }

  /**
   * Waits until the previous statement is answered, then for the owner; true when the statement
   * may go (it is then awaited), false when the connection closed meanwhile.
   */
  private async gate(statement: ProxyStatement): Promise<boolean> {
    while (this.answers.length > 0 && !this.closed) {
      await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
    if (this.closed) return false;
    await this.hooks.beforeStatement(this.info, statement);
    if (this.closed) return false;
    this.answers.push({ statement, commands: [] });
    return true;
  }

  private send(frame: FrontendFrame): void {
    if (!this.closed) this.upstream.write(frame.bytes);
  }

  private fromServer(chunk: Buffer): void {
    let flowing = true;
    for (const frame of this.backendFramer.push(chunk)) {
      let replaced: Buffer | undefined;
      this.parser.parse(frame, (message) => {
        replaced = this.heard(message);
      });
      flowing = this.client.write(replaced ?? frame) && flowing;
    }
    if (!flowing) this.upstream.pause();
  }

  /** Notes what the server said; an ErrorResponse the owner replaces comes back as its bytes. */
  private heard(message: BackendMessage): Buffer | undefined {
    const current = this.answers[0];
    switch (message.name) {
      case 'backendKeyData':
        this.pid = (message as BackendMessage & { processID: number }).processID;
        return;
      case 'commandComplete':
        current?.commands.push((message as BackendMessage & { text: string }).text);
        return;
      case 'error': {
        const error = message as DatabaseError;
        const instead = this.hooks.replaceError?.(this.info, error.code ?? '');
        if (current && !current.error)
          current.error = instead ?? { code: error.code ?? '', message: error.message };
        return instead ? errorResponse(instead) : undefined;
      }
      case 'readyForQuery':
        this.ready((message as BackendMessage & { status: string }).status);
        return;
    }
  }

  private ready(status: string): void {
    const done = this.answers.shift();
    if (done?.statement) {
      const result = {
        status: status as 'I' | 'T' | 'E',
        commands: done.commands,
        ...(done.error ? { error: done.error } : {}),
      };
      try {
        this.hooks.afterStatement?.(this.info, done.statement, result);
      } catch (error) {
        this.close(error instanceof Error ? error : new Error(String(error)));
        return;
      }
    }
    if (this.answers.length === 0) this.wakeIdle();
  }

  private wakeIdle(): void {
    for (const wake of this.idleWaiters.splice(0)) wake();
  }
}
