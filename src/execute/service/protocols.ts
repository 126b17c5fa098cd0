/**
 * The protocol drivers by name: the one place that knows them all. A new protocol is a driver
 * (`protocol.ts`) in a file of its own and one line here.
 */
import { httpProtocol } from './http-protocol.ts';
import { mcpHttpProtocol, mcpStdioProtocol } from './mcp-protocol.ts';
import type { ProtocolDriver } from './protocol.ts';

/** Every driver, in the order help texts and errors name them. */
export const PROTOCOLS: readonly ProtocolDriver[] = [
  httpProtocol,
  mcpStdioProtocol,
  mcpHttpProtocol,
];

/** The driver named `name`, or undefined. */
export function protocolNamed(name: string): ProtocolDriver | undefined {
  return PROTOCOLS.find((p) => p.name === name);
}
