import { MCPTool } from 'mcp-framework';
import { z } from 'zod';
import { bookings } from '../rooms.js';

export default class CancelBookingTool extends MCPTool {
  name = 'cancel_booking';
  description = 'Cancel one of your bookings.';
  schema = z.object({
    booking: z.string().regex(/^bk-\d+$/, 'booking ids look like bk-123').describe('The booking id'),
  });

  async execute({ booking }) {
    const b = bookings.get(booking);
    if (!b) throw new Error(`No booking ${booking}.`);
    if (b.owner !== 'you') throw new Error(`Booking ${booking} belongs to another team; you may not cancel it.`);
    bookings.delete(booking);
    return `Cancelled ${booking}.`;
  }
}
