import { MCPTool } from 'mcp-framework';
import { z } from 'zod';
import { rooms } from '../rooms.js';

export default class ListRoomsTool extends MCPTool {
  name = 'list_rooms';
  description = 'List the rooms with at least this many seats.';
  schema = z.object({
    minSeats: z.number().int().min(1).describe('The fewest seats a room must have'),
  });

  async execute({ minSeats }) {
    return [...rooms.values()].filter((r) => r.seats >= minSeats);
  }
}
