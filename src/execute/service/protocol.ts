/**
 * The protocol port: what the harness needs from any way of talking to a running service (HTTP,
 * MCP over stdio or streamable HTTP). A protocol driver opens one client per runner; the client
 * sends one call at a time or several at once, and hands back the service's answer as a
 * protocol-neutral `ServiceReply`. Turning that reply into an outcome is the description's answer
 * mapping (`answer-mapping.ts`), the same for every protocol. Drivers are picked by name in
 * `protocols.ts`.
 *
 * A driver owns what it starts: an HTTP driver starts the service's process and waits until it
 * listens; an MCP stdio driver lets its transport spawn it. `close()` stops all of it.
 */
import type { Principal } from '../../model/world.ts';

/** One call as it goes to the service, before the protocol encodes it. */
export interface ServiceRequest {
  /**
   * The call's request id, raw: usually a string, but generators send invalid ones too (a
   * number, `undefined`, an over-long string); a protocol sends what it can and says so.
   */
  readonly requestId: unknown;
  /** Trusted context: who calls, in which workspace, with which scopes (after revocations). */
  readonly principal: Principal;
  /** The operation's fields by name (the request id excluded), raw: possibly invalid. */
  readonly fields: Readonly<Record<string, unknown>>;
}

/**
 * What a service answered, before any mapping. HTTP fills it as sent; an MCP client makes a tool
 * result look like one: `status` 200 for a result, 500 for `isError`, `body` the structured
 * content (or the text content parsed as JSON, else the text).
 */
export interface ServiceReply {
  readonly status: number;
  /** Header names in lower case; values joined with `, ` when repeated. */
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON when the answer was JSON, else its text (`''` when empty). */
  readonly body: unknown;
}

/** An open connection to one running service. */
export interface ProtocolClient {
  /**
   * Sends one call and resolves with the service's reply; rejects when none came (the process
   * died, the connection broke, `signal` aborted). Several sends may be in flight at once.
   */
  send(request: ServiceRequest, signal?: AbortSignal): Promise<ServiceReply>;
  /** Stops the service and everything the client started; safe to call twice. */
  close(): Promise<void>;
}

/** How to start the service's process, resolved: absolute cwd, the environment as passed. */
export interface LaunchSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The whole environment the process gets (the harness's, the description's, the database's). */
  readonly env: Readonly<Record<string, string>>;
  /** Most time the service may take to be ready, in ms. */
  readonly readyTimeoutMs: number;
}

/** What a driver gets to open a client. */
export interface ProtocolContext {
  readonly launch: LaunchSpec;
  /** The description's `protocol` object (its `name` included), already checked by `checkOptions`. */
  readonly options: Readonly<Record<string, unknown>>;
  /** Where the description lives, for error messages. */
  readonly source: string;
  /**
   * The operation's argument names (the request id's left out), for a driver that can check
   * them against what the service declares (an MCP tool's input schema) before any call.
   */
  readonly argumentNames?: readonly string[];
}

/** One protocol: its name, the check of its options, and how it opens a client. */
export interface ProtocolDriver {
  /** As the description's `protocol.name` spells it: `http`, `mcp-stdio`, `mcp-http`. */
  readonly name: string;
  /**
   * What is wrong with the description's `protocol` object, as one line naming the field and the
   * fix; `undefined` when it is fine. Pure: runs before anything starts.
   */
  checkOptions(options: Readonly<Record<string, unknown>>): string | undefined;
  /**
   * Starts the service (or connects to it) and resolves once it answers calls; rejects with a
   * `ReceiptcheckError` (`E_SERVICE_START`) saying why, having stopped whatever it started.
   */
  open(context: ProtocolContext): Promise<ProtocolClient>;
}

/**
 * A reply's body from its text, as `ServiceReply.body` holds it: the parsed JSON when the text is
 * JSON, else the text itself (`''` when empty). HTTP bodies and MCP text content alike.
 */
export function bodyOfText(text: string): unknown {
  if (text === '') return '';
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
