#!/usr/bin/env node
// Entry point: registers tsx so TypeScript handler plugins load without a build step, for both
// of Node's module systems, as the tsx command does: in a `"type": "commonjs"` project (what
// `npm init -y` writes) a `.ts` plugin is CommonJS, and tsx's CommonJS hook is what compiles its
// import syntax; with the ES module hook alone Node fails it as a require(esm) cycle.
// Where src/ exists it runs the TypeScript sources, so `npm run check`, the tests and
// `npm run receiptcheck` never run a stale build. The package ships src/ too (the docs name its
// files), so an installed command runs the sources as well, while a plugin's
// `import 'receiptcheck'` loads dist/.
import { existsSync } from 'node:fs';
import { register as registerCommonJs } from 'tsx/cjs/api';
import { register } from 'tsx/esm/api';

registerCommonJs();
register();
const source = new URL('../src/cli/main.ts', import.meta.url);
const entry = existsSync(source) ? source : new URL('../dist/cli/main.js', import.meta.url);
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
