/** `adjust-balance` with the bug `stale-overdraft-check` (see `accounts.ts`). */
import { accountsHandler } from './accounts.ts';

export default accountsHandler('accounts-stale-overdraft-check', 'stale-overdraft-check');
