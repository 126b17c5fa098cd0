/** `set-interval` with the version check off by one (see `automations.ts`). */
import { automationsHandler } from './automations.ts';

export default automationsHandler('automations-version-one-behind', true);
