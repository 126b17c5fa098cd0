/**
 * Every command of the CLI, one file each in this folder. To add one, write
 * `commands/<name>.ts` exporting `register<Name>(program, ctx)` and append it here.
 *
 * Each command's module is imported only when it is needed: a command names itself on the command
 * line, so `receiptcheck run …` loads `run` and what it uses, not the bench, the prover or the
 * soak, which are most of the modules a start-up would otherwise load (`program.ts`).
 */
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.ts';

/** Registers one command on the program. */
export type RegisterCommand = (program: Command, ctx: CliContext) => void;

/** A command: its name on the command line, and how to load its registration. */
export interface CommandEntry {
  readonly name: string;
  readonly load: () => Promise<RegisterCommand>;
}

/** The commands, in the order `--help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'run', load: async () => (await import('./run.ts')).registerRun },
  { name: 'replay', load: async () => (await import('./replay.ts')).registerReplay },
  { name: 'prove', load: async () => (await import('./prove.ts')).registerProve },
  { name: 'report', load: async () => (await import('./report.ts')).registerReport },
  { name: 'mutants', load: async () => (await import('./mutants.ts')).registerMutants },
  { name: 'scenarios', load: async () => (await import('./scenarios.ts')).registerScenarios },
  { name: 'soak', load: async () => (await import('./soak.ts')).registerSoak },
  { name: 'bench', load: async () => (await import('./bench.ts')).registerBench },
  { name: 'operations', load: async () => (await import('./operations.ts')).registerOperations },
  { name: 'guard', load: async () => (await import('./guard.ts')).registerGuard },
];

/**
 * The commands `argv` needs registered: the one it names (its first word that is not an option),
 * or all of them when it names none (`--help`, `--version`, `help`, or a word that is no command,
 * which commander then answers with the list).
 */
export function commandsFor(argv: readonly string[]): readonly CommandEntry[] {
  const word = argv.find((a) => !a.startsWith('-'));
  const named = COMMANDS.find((c) => c.name === word);
  return named ? [named] : COMMANDS;
}
