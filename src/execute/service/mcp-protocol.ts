/**
 * The MCP protocols, as clients built with the official TypeScript SDK: `mcp-stdio` starts the
 * service and speaks MCP over its stdin and stdout (`mcp-stdio-transport.ts`); `mcp-http` starts
 * it with a free port in its environment and connects over streamable HTTP. Either way the client
 * initializes, lists the tools, finds the described one, and sends each call as a `tools/call`
 * (`mcp-call.ts` says how the fields, the request id and the principal travel). Several calls may
 * be in flight at once; each waits at most `callTimeoutMs`.
 *
 * The SDK is an optional package (`optional-packages.ts`): it is loaded when an MCP service is
 * opened, so the rest of receiptcheck runs without it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { messageOf, ReceiptcheckError } from '../../errors.ts';
import { importOptional } from '../../handlers/optional-packages.ts';
import { freePort } from '../runtime/free-port.ts';
import { replyOfRpcError, replyOfToolResult, type ToolResult, toolCallParams } from './mcp-call.ts';
import {
  checkMcpOptions,
  HTTP_OPTIONS,
  type McpOptions,
  mcpOptions,
  STDIO_OPTIONS,
} from './mcp-options.ts';
import { ProcessStdioTransport } from './mcp-stdio-transport.ts';
import type {
  ProtocolClient,
  ProtocolContext,
  ProtocolDriver,
  ServiceReply,
  ServiceRequest,
} from './protocol.ts';
import { ServiceProcess } from './service-process.ts';

/** A client of an MCP service, with the described tool as the server lists it. */
export interface McpClient extends ProtocolClient {
  /** The tool's `inputSchema`, a JSON Schema object, as `tools/list` gave it. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** How often an `mcp-http` service is tried until it answers, in ms. */
const POLL_MS = 25;

/** MCP over the service's stdin and stdout. */
export const mcpStdioProtocol: ProtocolDriver = {
  name: 'mcp-stdio',
  checkOptions: (options) => checkMcpOptions(options, STDIO_OPTIONS),
  open: (context) => openMcp(context, 'stdio'),
};

/** MCP over streamable HTTP. */
export const mcpHttpProtocol: ProtocolDriver = {
  name: 'mcp-http',
  checkOptions: (options) => checkMcpOptions(options, HTTP_OPTIONS),
  open: (context) => openMcp(context, 'http'),
};

/** The parts of the SDK a client needs, loaded on first use. */
async function loadSdk() {
  return importOptional('@modelcontextprotocol/sdk', async () => {
    const [client, http, stdio, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/shared/stdio.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    return { ...client, ...http, ...stdio, McpError: types.McpError, ErrorCode: types.ErrorCode };
  });
}

type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/** The connection, and how to say why the service is not there. */
interface Connected {
  readonly client: Client;
  /** Why the service stopped, when it has. */
  readonly ended: () => string | undefined;
  readonly startError: (what: string) => ReceiptcheckError;
  /** Stops the service and whatever the connection holds. */
  readonly stop: () => Promise<void>;
}

async function openMcp(context: ProtocolContext, via: 'stdio' | 'http'): Promise<McpClient> {
  const sdk = await loadSdk();
  const options = mcpOptions(context.options);
  const connected =
    via === 'stdio' ? await connectStdio(sdk, context) : await connectHttp(sdk, context, options);
  try {
    const names = context.argumentNames ?? [];
    const inputSchema = await findTool(connected, options, names, context.launch.readyTimeoutMs);
    return {
      inputSchema,
      send: (request, signal) => sendCall(sdk, connected, options, request, signal),
      close: connected.stop,
    };
  } catch (thrown) {
    await connected.stop();
    throw thrown;
  }
}

function newClient(sdk: Sdk): Client {
  return new sdk.Client({ name: 'receiptcheck', version: '0' }, { capabilities: {} });
}

async function connectStdio(sdk: Sdk, context: ProtocolContext): Promise<Connected> {
  const transport = new ProcessStdioTransport(context.launch, context.source, sdk);
  const client = newClient(sdk);
  const stop = async () => {
    await client.close().catch(() => {});
    await transport.close();
  };
  try {
    await client.connect(transport, { timeout: context.launch.readyTimeoutMs });
  } catch (thrown) {
    await stop();
    throw transport.ended === undefined && thrown instanceof ReceiptcheckError
      ? thrown
      : transport.startError(`it did not complete MCP's initialize: ${messageOf(thrown)}`);
  }
  return {
    client,
    ended: () => transport.ended,
    startError: (what) => transport.startError(what),
    stop,
  };
}

async function connectHttp(
  sdk: Sdk,
  context: ProtocolContext,
  options: McpOptions,
): Promise<Connected> {
  const port = await freePort();
  const launch = {
    ...context.launch,
    env: { ...context.launch.env, [options.portEnv]: String(port) },
  };
  const service = new ServiceProcess(launch, context.source);
  const url = new URL(`http://127.0.0.1:${port}${options.path}`);
  const deadline = performance.now() + context.launch.readyTimeoutMs;
  let last = '';
  // Until the service listens, connecting fails at once; each try is a fresh client.
  for (;;) {
    if (service.ended) throw service.startError(`it ended before answering at ${url}`);
    const client = newClient(sdk);
    const transport: Transport = new sdk.StreamableHTTPClientTransport(url);
    try {
      await client.connect(transport, { timeout: context.launch.readyTimeoutMs });
      const stop = async () => {
        await client.close().catch(() => {});
        await service.stop();
      };
      return {
        client,
        ended: () => service.ended,
        startError: (what) => service.startError(what),
        stop,
      };
    } catch (thrown) {
      last = messageOf(thrown);
      await client.close().catch(() => {});
    }
    if (performance.now() > deadline) {
      await service.stop();
      throw service.startError(
        `no MCP server answered at ${url} within ${context.launch.readyTimeoutMs} ms (${last})`,
      );
    }
    await sleep(POLL_MS);
  }
}

/**
 * The described tool's input schema; throws when the server does not offer the tool, or its
 * schema lists arguments without the request id's or one of the operation's.
 */
async function findTool(
  connected: Connected,
  options: McpOptions,
  argumentNames: readonly string[],
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  let listed: Awaited<ReturnType<Client['listTools']>>;
  try {
    listed = await connected.client.listTools(undefined, { timeout: timeoutMs });
  } catch (thrown) {
    throw connected.startError(`tools/list failed: ${messageOf(thrown)}`);
  }
  const tool = listed.tools.find((t) => t.name === options.tool);
  if (!tool) {
    const names = listed.tools.map((t) => t.name).join(', ') || 'none';
    throw connected.startError(
      `it offers no tool "${options.tool}" (its tools: ${names}); set protocol.tool to one of them`,
    );
  }
  const properties = tool.inputSchema.properties;
  if (!properties) return tool.inputSchema;
  const takes = Object.keys(properties);
  if (!takes.includes(options.requestIdArgument))
    throw connected.startError(
      `tool "${options.tool}" takes no argument "${options.requestIdArgument}" for the request id (its arguments: ${takes.join(', ')}); set protocol.requestIdArgument`,
    );
  const missing = argumentNames.filter((name) => !takes.includes(name));
  if (missing.length > 0)
    throw connected.startError(
      `tool "${options.tool}" takes no argument ${missing.map((m) => `"${m}"`).join(', ')} of the operation (its arguments: ${takes.join(', ')}); its input schema does not match the description's operation`,
    );
  return tool.inputSchema;
}

/**
 * One `tools/call`. A tool result and a JSON-RPC error are replies; no reply came when the
 * service ended, the call timed out or `signal` aborted: then the promise rejects.
 */
async function sendCall(
  sdk: Sdk,
  connected: Connected,
  options: McpOptions,
  request: ServiceRequest,
  signal: AbortSignal | undefined,
): Promise<ServiceReply> {
  const gone = connected.ended();
  if (gone) throw new Error(`the service ${gone}`);
  const params = toolCallParams(options.tool, options.requestIdArgument, request);
  try {
    const result = await connected.client.callTool(params, undefined, {
      timeout: options.callTimeoutMs,
      ...(signal ? { signal } : {}),
    });
    return replyOfToolResult(result as ToolResult);
  } catch (thrown) {
    const ended = connected.ended();
    if (ended) throw new Error(`the service ${ended} during tools/call`);
    if (
      thrown instanceof sdk.McpError &&
      thrown.code !== sdk.ErrorCode.RequestTimeout &&
      thrown.code !== sdk.ErrorCode.ConnectionClosed &&
      !signal?.aborted
    )
      return replyOfRpcError(thrown.code, thrown.message);
    throw thrown;
  }
}
