#!/usr/bin/env node
// Entry point: registers tsx so TypeScript handler plugins load without a build step, for both
// of Node's module systems, as the tsx command does: in a `"type": "commonjs"` project (what
// `npm init -y` writes) a `.ts` plugin is CommonJS, and tsx's CommonJS hook is what compiles its
// import syntax; with the ES module hook alone Node fails it as a require(esm) cycle.
// An installed command (this file inside a node_modules folder) runs the build, dist/, which is
// what a plugin's `import 'receiptcheck'` loads: one copy of receiptcheck in the process, so an
// error class, a spec or a registry a plugin gets from the package is the command's own. The
// package ships src/ too (the docs name its files), which an installed command must not run.
// In a checkout it runs the TypeScript sources, so `npm run check`, the tests and
// `npm run receiptcheck` never run a stale build.
import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register as registerCommonJs } from 'tsx/cjs/api';
import { register } from 'tsx/esm/api';

registerCommonJs();
register();
const installed = realpathSync(fileURLToPath(import.meta.url))
  .split(sep)
  .includes('node_modules');
const entry = new URL(installed ? '../dist/cli/main.js' : '../src/cli/main.ts', import.meta.url);
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
