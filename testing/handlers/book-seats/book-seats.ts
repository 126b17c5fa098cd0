/**
 * A user's own tool, written from the README as a newcomer would: `book-seats` books seats on a
 * show for a holder. Its fields come from a zod schema, the show must have the seats left
 * (`sold-out` otherwise), and each booking is a new row whose id the database assigns (`ids` left
 * at the contract's default, opaque). Imports only the public entries, as a user's code does.
 */
import { z } from 'zod';
import { defaultPrincipals, defineOperation } from '../../../src/index.ts';
import { fieldsFromZod } from '../../../src/zod.ts';

/** The tool's input, as its MCP server declares it. */
export const BookSeatsInput = z.object({
  showId: z.number().int().positive(),
  seats: z.number().int().min(1).max(8),
  holder: z.string().min(1).max(40),
});

export const bookSeats = defineOperation({
  name: 'book-seats',
  description: 'book seats on a show for a holder; a retry returns the same booking',
  tool: 'book_seats.v1',
  scope: 'booking:write',
  noun: 'show',
  table: 'shows',
  rowFields: ['capacity', 'sold'],
  targetField: 'showId',
  fields: fieldsFromZod(BookSeatsInput),
  resultFields: ['bookingId', 'showId', 'seats', 'holder'],
  payload: (a) => ({
    show: a.showId as number,
    seats: a.seats as number,
    holder: a.holder as string,
  }),
  precondition: (row, a) =>
    (row.sold as number) + (a.seats as number) > (row.capacity as number) ? 'sold-out' : undefined,
  refusals: ['sold-out'],
  effect: (row, a, nextId) => {
    const [seats, holder] = [a.seats as number, a.holder as string];
    return {
      row: { ...row, sold: (row.sold as number) + seats },
      created: { id: nextId, showId: row.id, seats, holder },
      result: { bookingId: nextId, showId: row.id, seats, holder },
    };
  },
  created: { table: 'bookings', fields: ['showId', 'seats', 'holder'], resultId: 'bookingId' },
  recreated: (id, workspace) => ({ id, workspace, capacity: 10, sold: 0 }),
  fixture: {
    shows: [
      { id: 1, workspace: 'team-a', capacity: 10, sold: 0 },
      { id: 2, workspace: 'team-a', capacity: 4, sold: 3 },
      { id: 20, workspace: 'team-b', capacity: 10, sold: 0 },
    ],
    bookings: [],
    principals: defaultPrincipals('booking:write'),
    workspaces: ['team-a', 'team-b'],
  },
});
