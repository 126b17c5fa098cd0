/** `adjust-balance` with the bug `refresh-after-commit` (see `accounts.ts`). */
import { accountsHandler } from './accounts.ts';

export default accountsHandler('accounts-refresh-after-commit', 'refresh-after-commit');
