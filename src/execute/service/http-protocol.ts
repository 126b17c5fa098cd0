/**
 * The HTTP protocol: the harness starts the service with a free port in its environment
 * (`PORT` by default), waits until that port accepts connections, and sends each call as one
 * JSON request: the fields in the body, the request id in a header (`Idempotency-Key` by default)
 * or a body field, the principal in headers (`X-User`, `X-Workspace`, `X-Scopes` with the scopes
 * space-separated).
 *
 * A header carries text only. A request id that is not a string is then left out, and a string a
 * header cannot carry as it is (control or non-ASCII characters, a space at an edge) is sent
 * percent-encoded: either way the service sees no valid id, as the contract wants for those
 * values. A service that takes the id in the body gets it exactly.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../runtime/free-port.ts';
import {
  bodyOfText,
  type ProtocolClient,
  type ProtocolContext,
  type ProtocolDriver,
  type ServiceReply,
  type ServiceRequest,
} from './protocol.ts';
import { ServiceProcess } from './service-process.ts';

/** The `protocol` object of an HTTP service, resolved. */
export interface HttpOptions {
  readonly method: string;
  readonly path: string;
  /** The header that carries the request id, or undefined when `requestIdField` does. */
  readonly requestIdHeader: string | undefined;
  /** The body field that carries the request id, when it travels in the body. */
  readonly requestIdField: string | undefined;
  readonly userHeader: string;
  readonly workspaceHeader: string;
  readonly scopesHeader: string;
  /** The environment variable the port is passed in. */
  readonly portEnv: string;
}

const STRING_OPTIONS = [
  'method',
  'path',
  'requestIdHeader',
  'requestIdField',
  'userHeader',
  'workspaceHeader',
  'scopesHeader',
  'portEnv',
] as const;

/** How often readiness is polled, in ms. */
const POLL_MS = 25;

/** The HTTP driver. */
export const httpProtocol: ProtocolDriver = {
  name: 'http',
  checkOptions(options) {
    for (const key of Object.keys(options))
      if (key !== 'name' && !(STRING_OPTIONS as readonly string[]).includes(key))
        return `protocol.${key} is not an HTTP option (known: ${STRING_OPTIONS.join(', ')})`;
    for (const key of STRING_OPTIONS)
      if (options[key] !== undefined && (typeof options[key] !== 'string' || options[key] === ''))
        return `protocol.${key} must be a non-empty string`;
    if (options.requestIdHeader !== undefined && options.requestIdField !== undefined)
      return 'protocol: give requestIdHeader or requestIdField, not both';
    if (typeof options.path === 'string' && !options.path.startsWith('/'))
      return `protocol.path must start with "/", not ${JSON.stringify(options.path)}`;
    return undefined;
  },
  open: openHttp,
};

/** The HTTP options of a checked `protocol` object, with their defaults. */
export function httpOptions(options: Readonly<Record<string, unknown>>): HttpOptions {
  const text = (key: string) => options[key] as string | undefined;
  return {
    method: (text('method') ?? 'POST').toUpperCase(),
    path: text('path') ?? '/',
    requestIdHeader: text('requestIdField')
      ? undefined
      : (text('requestIdHeader') ?? 'Idempotency-Key'),
    requestIdField: text('requestIdField'),
    userHeader: text('userHeader') ?? 'X-User',
    workspaceHeader: text('workspaceHeader') ?? 'X-Workspace',
    scopesHeader: text('scopesHeader') ?? 'X-Scopes',
    portEnv: text('portEnv') ?? 'PORT',
  };
}

async function openHttp(context: ProtocolContext): Promise<ProtocolClient> {
  const options = httpOptions(context.options);
  const port = await freePort();
  const service = new ServiceProcess(
    { ...context.launch, env: { ...context.launch.env, [options.portEnv]: String(port) } },
    context.source,
  );
  try {
    await untilListening(service, port, context.launch.readyTimeoutMs);
  } catch (thrown) {
    await service.stop();
    throw thrown;
  }
  return {
    send: async (request, signal) => {
      if (service.ended) throw new Error(`the service ${service.ended}`);
      try {
        return await sendHttp(port, options, request, signal);
      } catch (thrown) {
        throw signal?.aborted ? thrown : await diedDuring(service, thrown);
      }
    },
    close: () => service.stop(),
  };
}

/** How long a call's broken connection waits for the process's end, to say that it died. */
const DEATH_GRACE_MS = 2_000;

/**
 * What a call whose connection broke (`socket hang up`) is reported as: when the process ended
 * with it, its end and its last words, which say why; else the connection's own error.
 */
async function diedDuring(service: ServiceProcess, thrown: unknown): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, DEATH_GRACE_MS);
  });
  await Promise.race([service.exited, grace]);
  clearTimeout(timer);
  if (!service.ended) return thrown;
  const said = service.output();
  return new Error(
    `the service ${service.ended} during the call${said ? `; it said: ${said}` : ''}`,
  );
}

/** Polls until `port` accepts a connection; throws when the service ends or time runs out. */
async function untilListening(
  service: ServiceProcess,
  port: number,
  timeoutMs: number,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (service.ended) throw service.startError('it ended before listening');
    if (await accepts(port)) return;
    if (performance.now() > deadline)
      throw service.startError(`nothing listened on port ${port} within ${timeoutMs} ms`);
    await sleep(POLL_MS);
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The headers and body one call becomes. */
export function encodeRequest(
  options: HttpOptions,
  call: ServiceRequest,
): { headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    [options.userHeader]: call.principal.user,
    [options.workspaceHeader]: call.principal.workspace,
    [options.scopesHeader]: call.principal.scopes.join(' '),
  };
  const fields: Record<string, unknown> = { ...call.fields };
  if (options.requestIdField) fields[options.requestIdField] = call.requestId;
  else if (options.requestIdHeader && typeof call.requestId === 'string')
    headers[options.requestIdHeader] = headerText(call.requestId);
  return { headers, body: JSON.stringify(fields) };
}

/** `text` as a header can carry it: as it is when it can, else percent-encoded. */
function headerText(text: string): string {
  return /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/.test(text)
    ? text
    : encodeURIComponent(text);
}

function sendHttp(
  port: number,
  options: HttpOptions,
  call: ServiceRequest,
  signal?: AbortSignal,
): Promise<ServiceReply> {
  const { headers, body } = encodeRequest(options, call);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method,
        path: options.path,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        ...(signal ? { signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const replyHeaders: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers))
            if (value !== undefined)
              replyHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
          resolve({ status: res.statusCode ?? 0, headers: replyHeaders, body: bodyOfText(text) });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
