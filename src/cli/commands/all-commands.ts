/**
 * Every command of the CLI, one file each in this folder. To add one, write
 * `commands/<name>.ts` exporting `register<Name>(program, ctx)` and append it here.
 */
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.ts';
import { registerBench } from './bench.ts';
import { registerGuard } from './guard.ts';
import { registerMutants } from './mutants.ts';
import { registerOperations } from './operations.ts';
import { registerProve } from './prove.ts';
import { registerReplay } from './replay.ts';
import { registerReport } from './report.ts';
import { registerRun } from './run.ts';
import { registerScenarios } from './scenarios.ts';
import { registerSoak } from './soak.ts';

/** Registers one command on the program. */
export type RegisterCommand = (program: Command, ctx: CliContext) => void;

/** The commands, in the order `--help` lists them. */
export const COMMANDS: readonly RegisterCommand[] = [
  registerRun,
  registerReplay,
  registerProve,
  registerReport,
  registerMutants,
  registerScenarios,
  registerSoak,
  registerBench,
  registerOperations,
  registerGuard,
];
