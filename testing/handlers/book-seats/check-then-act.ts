/** `book-seats` with its seats-left check read before the write transaction: a race. */
import { bookSeatsHandler } from './handler.ts';

export default bookSeatsHandler('book-seats-check-then-act', true);
