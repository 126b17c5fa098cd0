/**
 * The `protocol` object of an MCP service (`mcp-stdio`, `mcp-http`): its options checked before
 * anything starts, one line naming the option and the fix, and resolved with their defaults.
 * Pure.
 */
import { DEFAULT_REQUEST_ID_ARGUMENT } from './mcp-call.ts';

/** The `protocol` object of an MCP service, resolved. */
export interface McpOptions {
  /** The tool every call goes to. */
  readonly tool: string;
  /** The tool argument that carries the request id. */
  readonly requestIdArgument: string;
  /** Most time one call may take, in ms: a call past it has no reply. */
  readonly callTimeoutMs: number;
  /** `mcp-http`: the endpoint's path. */
  readonly path: string;
  /** `mcp-http`: the environment variable the port is passed in. */
  readonly portEnv: string;
}

const DEFAULT_CALL_TIMEOUT_MS = 30_000;
/** The options of `mcp-stdio`, and of `mcp-http` with its own. */
export const STDIO_OPTIONS = ['tool', 'requestIdArgument', 'callTimeoutMs'] as const;
export const HTTP_OPTIONS = [...STDIO_OPTIONS, 'path', 'portEnv'] as const;

/** What is wrong with an MCP `protocol` object whose known options are `known`, or undefined. */
export function checkMcpOptions(
  options: Readonly<Record<string, unknown>>,
  known: readonly string[],
): string | undefined {
  for (const key of Object.keys(options))
    if (key !== 'name' && !known.includes(key))
      return `protocol.${key} is not an option of ${String(options.name)} (known: ${known.join(', ')})`;
  if (typeof options.tool !== 'string' || options.tool === '')
    return 'protocol.tool must name the tool to call, e.g. "set_interval"';
  for (const key of ['requestIdArgument', 'path', 'portEnv'])
    if (options[key] !== undefined && (typeof options[key] !== 'string' || options[key] === ''))
      return `protocol.${key} must be a non-empty string`;
  if (typeof options.path === 'string' && !options.path.startsWith('/'))
    return `protocol.path must start with "/", not ${JSON.stringify(options.path)}`;
  const timeout = options.callTimeoutMs;
  if (timeout !== undefined && !(Number.isSafeInteger(timeout) && (timeout as number) > 0))
    return 'protocol.callTimeoutMs must be a positive integer of milliseconds';
  return undefined;
}

/** The MCP options of a checked `protocol` object, with their defaults. */
export function mcpOptions(options: Readonly<Record<string, unknown>>): McpOptions {
  return {
    tool: options.tool as string,
    requestIdArgument: (options.requestIdArgument as string) ?? DEFAULT_REQUEST_ID_ARGUMENT,
    callTimeoutMs: (options.callTimeoutMs as number) ?? DEFAULT_CALL_TIMEOUT_MS,
    path: (options.path as string) ?? '/mcp',
    portEnv: (options.portEnv as string) ?? 'PORT',
  };
}
