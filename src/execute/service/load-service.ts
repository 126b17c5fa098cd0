/**
 * Loads a service description (`--service FILE`, or any handler path ending in `.json`): reads
 * and checks it (`service-description.ts`), lets its protocol's driver check its options, checks
 * that it snapshots every table the operation's model reads, and makes it a plugin
 * (`service-plugin.ts`). Nothing starts here; the runner starts the service.
 */
import { readFileSync } from 'node:fs';
import { ReceiptcheckError } from '../../errors.ts';
import { knownOperation } from '../../model/operations/index.ts';
import { PROTOCOLS, protocolNamed } from './protocols.ts';
import { parseServiceDescription } from './service-description.ts';
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
  return servicePlugin(d, path);
}
