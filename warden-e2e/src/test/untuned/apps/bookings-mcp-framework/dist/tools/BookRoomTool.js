import { MCPTool } from 'mcp-framework';
import { z } from 'zod';
import { bookings, rooms } from '../rooms.js';

export default class BookRoomTool extends MCPTool {
  name = 'book_room';
  description = 'Book a meeting room for a morning or an afternoon.';
  schema = z.object({
    room: z.string().describe('The room id, e.g. oslo'),
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'day must be YYYY-MM-DD').describe('The day, YYYY-MM-DD'),
    slot: z.enum(['morning', 'afternoon']).describe('morning or afternoon'),
    attendees: z.number().int().min(1).max(50).describe('How many people attend'),
  });

  async execute({ room, day, slot, attendees }) {
    const r = rooms.get(room);
    if (!r) throw new Error(`Unknown room "${room}". Rooms: ${[...rooms.keys()].join(', ')}.`);
    if (attendees > r.seats) throw new Error(`Room ${room} seats ${r.seats}; ${attendees} attendees do not fit.`);
    for (const b of bookings.values()) {
      if (b.room === room && b.day === day && b.slot === slot) {
        throw new Error(`Room ${room} is already booked on ${day} (${slot}).`);
      }
    }
    const id = `bk-${500 + bookings.size + 1}`;
    bookings.set(id, { id, room, day, slot, owner: 'you' });
    return { booking: id, room, day, slot };
  }
}
