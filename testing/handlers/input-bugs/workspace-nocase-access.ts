/**
 * Input bug: current access compares workspaces case-insensitively (a `COLLATE NOCASE` tenant
 * column), so a principal of Team-A reads and writes team-a's automations. Caught only by
 * principals whose workspace differs only in case from another's.
 */
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';

export const CAUGHT_BY: readonly InputClass[] = ['principal workspace differs only in case'];

export default defineInputBug({
  name: 'workspace-nocase-access',
  description: "Compares workspaces with COLLATE NOCASE, so Team-A writes team-a's automations.",
  steps: {
    canAccess(db, principal, r) {
      return (
        db
          .prepare('SELECT 1 FROM automations WHERE id = ? AND workspace_id = ? COLLATE NOCASE')
          .get(r.automationId, principal.workspace) !== undefined
      );
    },
    updateRow(db, principal, r) {
      const row = db
        .prepare(
          `UPDATE automations SET interval_minutes = ?, version = version + 1
             WHERE id = ? AND workspace_id = ? COLLATE NOCASE AND version = ?
             RETURNING id, interval_minutes, version`,
        )
        .get(r.intervalMinutes, r.automationId, principal.workspace, r.expectedVersion) as
        | { id: number; interval_minutes: number; version: number }
        | undefined;
      return row && { id: row.id, intervalMinutes: row.interval_minutes, version: row.version };
    },
  },
});
