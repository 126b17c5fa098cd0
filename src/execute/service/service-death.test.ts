/**
 * A service that dies in the middle of a call: the counterexample says the service exited, with
 * its exit code and its last words, not only the connection's `socket hang up`, so its author
 * learns why. The service is a few lines of Python that listen and, at the first request, write
 * their reason and exit with code 1.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const EXAMPLE = JSON.parse(readFileSync(join(REPO, 'examples/python-http/service.json'), 'utf8'));

const DIES_AT_FIRST_CALL = [
  'import os, sys, http.server',
  'class H(http.server.BaseHTTPRequestHandler):',
  '    def do_POST(self):',
  "        print('fatal: segfault simulated', file=sys.stderr, flush=True)",
  '        os._exit(1)',
  "http.server.HTTPServer(('127.0.0.1', int(os.environ['PORT'])), H).serve_forever()",
].join('\n');

const dir = mkdtempSync(join(tmpdir(), 'rc-service-death-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a service that dies during a call', () => {
  it('is reported with its exit and its last words', async () => {
    const path = join(dir, 'dies.json');
    writeFileSync(path, JSON.stringify({ ...EXAMPLE, args: ['-c', DIES_AT_FIRST_CALL] }));
    const r = await runCli(
      'run',
      '--service',
      path,
      '--mode',
      'sequential',
      '--runs',
      '5',
      '--out',
      join(dir, 'cx'),
    );
    expect(r.code, r.err).toBe(1);
    expect(r.out).toContain(
      'the service exited with code 1 during the call; it said: fatal: segfault simulated',
    );
  }, 120_000);
});
