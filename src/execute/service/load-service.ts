/**
 * Loads a service description (`--service FILE`, or any handler path ending in `.json`): reads
 * and checks it (`service-description.ts`), lets its protocol's driver check its options, checks
 * that it snapshots every table the operation's model reads, and makes it a plugin
 * (`service-plugin.ts`). Nothing starts here; the runner starts the service.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isReceiptcheckError, ReceiptcheckError } from '../../errors.ts';
import { knownOperation } from '../../model/operations/index.ts';
import { resolvePolicy } from '../../model/policy.ts';
import { PROTOCOLS, protocolNamed } from './protocols.ts';
import { parseServiceDescription, type ServiceDescription } from './service-description.ts';
import { type ServicePlugin, servicePlugin } from './service-plugin.ts';

/** The plugin the description at absolute `path` describes; throws `E_SERVICE_DESCRIPTION`. */
export function loadService(path: string): ServicePlugin {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (thrown) {
    throw new ReceiptcheckError(
      'E_SERVICE_DESCRIPTION',
      `service description ${path} cannot be read: ${(thrown as Error).message}`,
    );
  }
  const d = parseServiceDescription(text, path);
  const bad = (what: string): never => {
    throw new ReceiptcheckError('E_SERVICE_DESCRIPTION', `service description ${path}: ${what}`);
  };
  const driver = protocolNamed(d.protocol.name);
  if (!driver)
    bad(
      `"protocol.name" must be one of ${PROTOCOLS.map((p) => `"${p.name}"`).join(', ')}, not ${JSON.stringify(d.protocol.name)}`,
    );
  const problem = driver?.checkOptions(d.protocol);
  if (problem) bad(problem);
  const spec = knownOperation(d.operation ?? 'set-interval');
  if (!spec)
    return bad(`"operation" must name a built-in operation, not ${JSON.stringify(d.operation)}`);
  for (const table of [spec.table, ...(spec.created ? [spec.created.table] : [])])
    if (d.snapshot[table] === undefined)
      bad(`"snapshot.${table}" is missing: operation ${spec.name} reads its ${table} table`);
  // The default restore drops receiptcheck's own trigger: it cannot undo a failure of yours.
  if ((d.world.failReceipts === undefined) !== (d.world.restoreReceipts === undefined))
    bad(
      `"world.${d.world.failReceipts === undefined ? 'restoreReceipts' : 'failReceipts'}" is given without "world.${d.world.failReceipts === undefined ? 'failReceipts' : 'restoreReceipts'}": the defaults fail and restore the store by a trigger of receiptcheck's own, which cannot undo or be undone by yours; give both or neither`,
    );
  checkPolicy(d.policy, d.name, bad);
  const cwd = resolve(dirname(path), d.cwd ?? '.');
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory())
    bad(`"cwd" names ${cwd}, which is not a folder (it is read from the description's folder)`);
  return servicePlugin(d, path);
}

/**
 * A description's `policy`, checked as a plugin's is, in the description's words. An expiry in
 * ms needs a clock the harness can move (a plugin's `advanceClock`), which a service cannot offer.
 */
function checkPolicy(
  declared: ServiceDescription['policy'],
  name: string,
  bad: (what: string) => never,
): void {
  try {
    const policy = resolvePolicy(declared, name);
    for (const key of ['receiptExpiry', 'claimExpiry'] as const)
      if (typeof policy[key] === 'number')
        bad(
          `"policy.${key}" in ms needs a clock receiptcheck can move, which a service cannot offer it; declare ${key === 'receiptExpiry' ? "'never'" : "'noClaim' or 'never'"}, or check the handler as a plugin with advanceClock`,
        );
  } catch (thrown) {
    if (!isReceiptcheckError(thrown) || thrown.code !== 'E_HANDLER_SHAPE') throw thrown;
    // `handler "x": policy.key is …` in the description's words: `"policy.key" is …`.
    bad(thrown.message.replace(/^handler "[^"]*": (policy(?:\.\w+)?)/, '"$1"'));
  }
}
