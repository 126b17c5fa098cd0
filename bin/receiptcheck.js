#!/usr/bin/env node
// Entry point: registers tsx so the CLI and any TypeScript handler plugin load without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
