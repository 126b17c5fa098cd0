/**
 * An MCP server exposing the article's `set_interval` tool, built with the official TypeScript
 * SDK. Over stdio by default; with `--http`, over streamable HTTP on `$PORT` at `/mcp`
 * (stateless: a server and transport per request). The database file's path comes from
 * `$DATABASE_PATH`, which receiptcheck sets; the tables are the harness's.
 *
 * The principal is request context: receiptcheck sends it in the `tools/call` request's `_meta`
 * under `receiptcheck/principal`, and a real server would take it from its authentication
 * instead. The tool is registered on the SDK's `Server` with a JSON Schema, not through
 * `McpServer.registerTool`: that one validates the arguments against its schema before the tool
 * runs, so a caller without the scope who sent a bad argument would hear "invalid", where the
 * contract checks the scope first.
 *
 * `RECEIPTCHECK_EXAMPLE_BUG=key-without-user` plants the bug `service-bug.json` must catch.
 */
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { type Caller, INPUT_SCHEMA, setInterval } from './set-interval-tool.ts';

const databasePath = process.env.DATABASE_PATH;
if (!databasePath) {
  process.stderr.write('DATABASE_PATH is not set: run me through receiptcheck\n');
  process.exit(1);
}
const keyWithoutUser = process.env.RECEIPTCHECK_EXAMPLE_BUG === 'key-without-user';

function callerOf(meta: Record<string, unknown> | undefined): Caller | undefined {
  const given = meta?.['receiptcheck/principal'] as Partial<Caller> | undefined;
  if (typeof given?.user !== 'string' || typeof given.workspace !== 'string') return undefined;
  const scopes = Array.isArray(given.scopes)
    ? given.scopes.filter((s) => typeof s === 'string')
    : [];
  return { user: given.user, workspace: given.workspace, scopes };
}

function newServer(path: string): Server {
  const server = new Server(
    { name: 'set-interval-example', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: 'set_interval',
        description: "Sets an automation's interval once per request id.",
        inputSchema: INPUT_SCHEMA,
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    if (request.params.name !== 'set_interval')
      throw new Error(`unknown tool ${request.params.name}`);
    const answer = setInterval(
      path,
      callerOf(extra._meta as Record<string, unknown> | undefined),
      request.params.arguments ?? {},
      keyWithoutUser,
    );
    return {
      content: [{ type: 'text', text: JSON.stringify(answer) }],
      structuredContent: answer,
      isError: answer.outcome !== 'ok',
    };
  });
  return server;
}

if (process.argv.includes('--http')) {
  const port = Number(process.env.PORT);
  createServer((req, res) => {
    if (req.url !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const server = newServer(databasePath);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((e: unknown) => {
        process.stderr.write(`${String(e)}\n`);
        if (!res.headersSent) res.writeHead(500).end();
      });
  }).listen(port, '127.0.0.1');
} else {
  await newServer(databasePath).connect(new StdioServerTransport());
}
