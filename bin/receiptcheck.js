#!/usr/bin/env node
// Entry point. An installed command (this file inside a node_modules folder) runs the build,
// dist/, which is what a plugin's `import 'receiptcheck'` loads: one copy of receiptcheck in the
// process, so an error class, a spec or a registry a plugin gets from the package is the
// command's own. The package ships src/ too (the docs name its files), which an installed command
// must not run. It registers no loader at start: tsx is registered when a TypeScript plugin
// comes (`src/execute/runtime/import-plugin-module.ts`), in a `"type": "commonjs"` project too;
// registered at start, its hooks slowed every module the command loads (about a second of CPU).
// (In a CommonJS project a plugin's `require('receiptcheck')` still compiles a copy of its own.)
// In a checkout it runs the TypeScript sources, so `npm run check`, the tests and
// `npm run receiptcheck` never run a stale build; there its loader is registered first
// (`src/execute/workers/checkout-loader.mjs`), or, when a build of the checkout is named (a test
// run), its build is run with none.
import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const installed = realpathSync(fileURLToPath(import.meta.url))
  .split(sep)
  .includes('node_modules');
const entry = installed
  ? new URL('../dist/cli/main.js', import.meta.url).href
  : await (await import('../src/execute/workers/checkout-loader.mjs')).checkoutEntry(
      new URL('../src/cli/main.ts', import.meta.url).href,
    );
const { main } = await import(entry);
process.exitCode = await main(process.argv.slice(2));
