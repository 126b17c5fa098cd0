/** `move-stock` with the destination bin's workspace left unchecked (the planted bug). */
import { moveStockHandler } from './handler.ts';

export default moveStockHandler('move-stock-destination-unchecked', true);
