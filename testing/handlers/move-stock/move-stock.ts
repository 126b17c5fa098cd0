/**
 * A user's own tool that writes two rows, written from docs/plugins.md as a newcomer would:
 * `move-stock` moves a quantity of stock from one bin to another in the caller's workspace. Its
 * fields come from a zod schema, both bins are targets (`otherTargets`), the source must hold
 * the quantity (`out-of-stock` otherwise), and the effect changes both rows. Imports only the
 * public entries, as a user's code does.
 */
import { z } from 'zod';
import { defaultPrincipals, defineOperation, type Row } from '../../../src/index.ts';
import { fieldsFromZod } from '../../../src/zod.ts';

/** The tool's input, as its MCP server declares it. */
export const MoveStockInput = z.object({
  fromBinId: z.number().int().positive(),
  toBinId: z.number().int().positive(),
  qty: z.number().int().min(1).max(50),
});

export const moveStock = defineOperation({
  name: 'move-stock',
  description: 'move stock from one bin to another of the same workspace',
  tool: 'move_stock.v1',
  scope: 'stock:write',
  noun: 'bin',
  table: 'bins',
  rowFields: ['stock'],
  targetField: 'fromBinId',
  otherTargets: ['toBinId'],
  fields: fieldsFromZod(MoveStockInput),
  resultFields: ['fromBinId', 'fromStock', 'toBinId', 'toStock'],
  payload: (a) => ({ from: a.fromBinId as number, to: a.toBinId as number, qty: a.qty as number }),
  precondition: (from, a) =>
    (from.stock as number) < (a.qty as number) ? 'out-of-stock' : undefined,
  refusals: ['out-of-stock'],
  effect: (from, a, _nextId, [to]) => {
    const qty = a.qty as number;
    const source = { ...from, stock: (from.stock as number) - qty };
    const target = { ...(to as Row), stock: ((to as Row).stock as number) + qty };
    return {
      row: source,
      others: [target],
      result: {
        fromBinId: source.id,
        fromStock: source.stock,
        toBinId: target.id,
        toStock: target.stock,
      },
    };
  },
  recreated: (id, workspace) => ({ id, workspace, stock: 0 }),
  fixture: {
    bins: [
      { id: 1, workspace: 'team-a', stock: 40 },
      { id: 2, workspace: 'team-a', stock: 5 },
      { id: 3, workspace: 'team-a', stock: 0 },
      { id: 20, workspace: 'team-b', stock: 40 },
      { id: 21, workspace: 'team-b', stock: 0 },
    ],
    principals: defaultPrincipals('stock:write'),
    workspaces: ['team-a', 'team-b'],
  },
});
