// Layering of src/, checked by `npm run lint:layers` (part of `npm run lint`, so of .ci/run).
//
// Low to high:
//   src/lib                           small general data structures; import nothing else in src
//   src/model, src/errors.ts          the vocabulary; import nothing else in src but lib
//   src/types                         shared types; may import only model and errors.ts
//   src/generate, src/check           pure; peers of each other
//   src/report                        pure; may import check, generate, types, model
//   src/handlers                      the reference handler, mutants, library adapters
//   src/execute                       runs handlers (sequential, concurrent, scheduled); inside it
//     runtime/, schedule/               engine-neutral: the process runtime, the scheduler's core
//     sqlite/, postgres/                the engines, each on the shared code only, never each other
//   src/api                           the library's entry points
//   src/bench                         benchmarks built on api
//   src/cli                           the command line
//   src/index.ts                      the public barrel; nothing in src imports it
//
// A file may import from its own layer or any lower one. The layer rules skip test files and
// fixtures/ folders (a test may reach up to build what it tests); the cycle rule does not.
// Rule paths are anchored at `src/` relative to the cruise's base folder, so the same rules
// run over this project and over the planted-violation fixture in testing/layering-fixture.

/** Test files and fixture folders may import upward (but may not take part in cycles). */
const TESTS = '\\.test\\.ts$|/fixtures/';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'A file-level import cycle makes load order matter (an import can be undefined at ' +
        'module-evaluation time) and means neither file can be understood or tested alone. ' +
        'Type-only imports count too: they tie the same two files together.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable-import',
      comment:
        'An import that cannot be resolved to a file is an edge this lint cannot check. If ' +
        '`./x.ts` imports ever stopped resolving, every other rule would pass on a graph with ' +
        'no edges; this rule makes that fail loudly instead.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'lib-at-the-bottom',
      comment:
        'src/lib holds general data structures (the persistent map) that know nothing of ' +
        'receipts; anything they imported from src would sit under the model too.',
      severity: 'error',
      from: { path: '^src/lib/', pathNot: TESTS },
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'model-at-the-bottom',
      comment:
        'src/model and src/errors.ts are the vocabulary every layer speaks; if they imported ' +
        'anything else in src, every layer would depend on it.',
      severity: 'error',
      from: { path: '^src/(model/|errors\\.ts$)', pathNot: TESTS },
      to: { path: '^src/', pathNot: '^src/(lib/|model/|errors\\.ts$)' },
    },
    {
      name: 'types-only-on-model',
      comment:
        'src/types holds types shared across layers so that a lower layer need not import a ' +
        'higher one to name a type; it can only do that if it sits just above model itself.',
      severity: 'error',
      from: { path: '^src/types/', pathNot: TESTS },
      to: { path: '^src/', pathNot: '^src/(types/|lib/|model/|errors\\.ts$)' },
    },
    {
      name: 'pure-layers-stay-pure',
      comment:
        'lib, model, types, generate, check and report are pure: no databases, workers, handlers or ' +
        'process state. Importing handlers, execute, api, bench or cli would drag those in and ' +
        'make the checker depend on how runs are driven.',
      severity: 'error',
      from: {
        path: '^src/((lib|model|types|generate|check|report)/|errors\\.ts$)',
        pathNot: TESTS,
      },
      to: { path: '^src/(handlers|execute|api|bench|cli)/' },
    },
    {
      name: 'check-and-generate-below-report',
      comment:
        'report formats what check found and what generate made; if check or generate imported ' +
        'report, the verdict would depend on its presentation.',
      severity: 'error',
      from: { path: '^src/(generate|check)/', pathNot: TESTS },
      to: { path: '^src/report/' },
    },
    {
      name: 'handlers-below-execute',
      comment:
        'Handlers are what execute runs; they must work under any runner, so they may not ' +
        'import execute or anything above it.',
      severity: 'error',
      from: { path: '^src/handlers/', pathNot: TESTS },
      to: { path: '^src/(execute|api|bench|cli)/' },
    },
    {
      name: 'execute-below-api',
      comment:
        'execute is the engine api drives; reaching up to api (e.g. for its option types) ' +
        'makes the engine depend on one front end. Shared types belong in src/types.',
      severity: 'error',
      from: { path: '^src/execute/', pathNot: TESTS },
      to: { path: '^src/(api|bench|cli)/' },
    },
    {
      name: 'schedule-core-is-engine-neutral',
      comment:
        'src/execute/schedule holds the one grant loop and what it decides with; an engine is a ' +
        'driver behind its port. If the core imported an engine, the next engine would have to ' +
        'be written into it, and the loop would no longer be one.',
      severity: 'error',
      from: { path: '^src/execute/(schedule|runtime)/', pathNot: TESTS },
      to: { path: '^src/execute/(sqlite|postgres)/' },
    },
    {
      name: 'engines-apart',
      comment:
        'SQLite and PostgreSQL execution each build on the shared code (the schedule core, the ' +
        'runtime, the mode-runner seam) and never on each other: what both need belongs in the ' +
        'shared code, so a change to it is made once.',
      severity: 'error',
      from: { path: '^src/execute/(sqlite|postgres)/', pathNot: TESTS },
      // `$1`: the importer's own engine, which it may of course import.
      to: { path: '^src/execute/(sqlite|postgres)/', pathNot: '^src/execute/$1/' },
    },
    {
      name: 'api-below-bench',
      comment: 'bench measures the api; the api must not depend on its benchmarks or on the CLI.',
      severity: 'error',
      from: { path: '^src/api/', pathNot: TESTS },
      to: { path: '^src/(bench|cli)/' },
    },
    {
      name: 'bench-below-cli',
      comment: 'The CLI runs benchmarks; benchmarks must run without the CLI.',
      severity: 'error',
      from: { path: '^src/bench/', pathNot: TESTS },
      to: { path: '^src/cli/' },
    },
    {
      name: 'barrel-is-the-top',
      comment:
        'src/index.ts is the public barrel and re-exports every layer (src/zod.ts, the ' +
        '`receiptcheck/zod` entry, likewise); importing one from inside src makes the importer ' +
        'depend on all of them (and usually makes a cycle).',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/(index|zod)\\.ts$|${TESTS}` },
      to: { path: '^src/(index|zod)\\.ts$' },
    },
    {
      name: 'zod-only-behind-its-entry',
      comment:
        'zod is an optional peer dependency: users without it must be able to load every entry ' +
        'but `receiptcheck/zod`, and compile against their types. Only src/zod.ts and ' +
        'src/generate/zod/ may reach zod, even by a type import (a .d.ts naming zod fails to ' +
        'compile for a user without it).',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/zod\\.ts$|^src/generate/zod/|${TESTS}` },
      to: { path: 'node_modules/zod/', reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Count `import type` edges too: they are layering and cycle edges like any other.
    tsPreCompilationDeps: true,
    // The code imports siblings as `./x.ts` (allowImportingTsExtensions); those resolve as
    // plain file paths, so no tsconfig is needed to find them. no-unresolvable-import guards it.
    // Resolve package subpaths (`@aws-lambda-powertools/idempotency/persistence`, `tsx/esm/api`)
    // through their package.json "exports", as Node does; dependency-cruiser ignores
    // "exports" unless told to, and would report them as unresolvable.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
