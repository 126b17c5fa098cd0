/** `create-once` with the amount's upper limit off by one (see `invoices.ts`). */
import { invoicesHandler } from './invoices.ts';

export default invoicesHandler('invoices-amount-max-exclusive', true);
