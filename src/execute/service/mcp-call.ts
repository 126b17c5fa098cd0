/**
 * How one call travels over MCP, both ways, as pure data: the `tools/call` parameters a
 * `ServiceRequest` becomes, and the `ServiceReply` a tool result (or a JSON-RPC error) becomes,
 * so the description's answer mapping (`answer-mapping.ts`) reads an MCP answer as it reads an
 * HTTP one. Shared by the stdio and the streamable HTTP driver (`mcp-protocol.ts`).
 *
 * One way for both transports: the fields and the request id are the tool's arguments (the id
 * under `requestIdArgument`, as an agent passes an idempotency key to a tool); the principal is
 * request context, so it travels in the request's `_meta` under `PRINCIPAL_META_KEY`, where a
 * server built with the SDK reads it (`extra._meta` in a tool handler), never in the arguments
 * a caller could forge.
 */
import { bodyOfText, type ServiceReply, type ServiceRequest } from './protocol.ts';

/** The `_meta` key of a `tools/call` request that carries the principal. */
export const PRINCIPAL_META_KEY = 'receiptcheck/principal';

/** The argument that carries the request id unless the description names another. */
export const DEFAULT_REQUEST_ID_ARGUMENT = 'requestId';

/** Status a tool result stands for: 200, or 500 with `isError`. */
export const TOOL_ERROR_STATUS = 500;

/** The parameters of one `tools/call` request. */
export interface ToolCallParams {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly _meta: Record<string, unknown>;
}

/** A tool result as the SDK hands it back (only what a reply is made of). */
export interface ToolResult {
  readonly content?: readonly unknown[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
}

/**
 * The `tools/call` parameters for `call`. A request id that is `undefined` is left out, as JSON
 * would drop it; any other value is sent as it is (the generators' invalid ids included).
 */
export function toolCallParams(
  tool: string,
  requestIdArgument: string,
  call: ServiceRequest,
): ToolCallParams {
  const args: Record<string, unknown> = { ...call.fields };
  if (call.requestId !== undefined) args[requestIdArgument] = call.requestId;
  const { user, workspace, scopes } = call.principal;
  return {
    name: tool,
    arguments: args,
    _meta: { [PRINCIPAL_META_KEY]: { user, workspace, scopes: [...scopes] } },
  };
}

/**
 * The reply a tool result stands for: status 200, or 500 when `isError`; the body is the
 * structured content when there is some, else the text content parsed as JSON (else the text,
 * its parts joined by newlines), else `''`. No headers.
 */
export function replyOfToolResult(result: ToolResult): ServiceReply {
  const status = result.isError === true ? TOOL_ERROR_STATUS : 200;
  if (result.structuredContent !== undefined)
    return { status, headers: {}, body: result.structuredContent };
  const text = (result.content ?? [])
    .flatMap((part) => (isTextPart(part) ? [part.text] : []))
    .join('\n');
  return { status, headers: {}, body: bodyOfText(text) };
}

/**
 * The reply a JSON-RPC error to `tools/call` stands for: the server refused the call itself
 * (unknown tool, its own schema validation, a crash in the SDK's dispatch). Status 400 for
 * invalid params (-32602), else 500; the body `{error, code}`; the code also in the
 * `mcp-error-code` header, so a description's rule can match it.
 */
export function replyOfRpcError(code: number, message: string): ServiceReply {
  return {
    status: code === INVALID_PARAMS ? 400 : 500,
    headers: { 'mcp-error-code': String(code) },
    body: { error: message, code },
  };
}

const INVALID_PARAMS = -32602;

function isTextPart(part: unknown): part is { type: 'text'; text: string } {
  return (
    typeof part === 'object' &&
    part !== null &&
    (part as { type?: unknown }).type === 'text' &&
    typeof (part as { text?: unknown }).text === 'string'
  );
}
