/** `adjust-balance` with the bug `refuses-emptying-debit` (see `accounts.ts`). */
import { accountsHandler } from './accounts.ts';

export default accountsHandler('accounts-refuses-emptying-debit', 'refuses-emptying-debit');
