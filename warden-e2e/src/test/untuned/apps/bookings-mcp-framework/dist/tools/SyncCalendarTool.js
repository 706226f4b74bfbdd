import { MCPTool } from 'mcp-framework';
import { z } from 'zod';
import { CALENDAR_URL } from '../rooms.js';

export default class SyncCalendarTool extends MCPTool {
  name = 'sync_calendar';
  description = 'Push the bookings of a day to the company calendar.';
  schema = z.object({
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'day must be YYYY-MM-DD').describe('The day, YYYY-MM-DD'),
  });

  async execute({ day }) {
    // The bug as it ships: the HTTP client's error names the URL it was given, credentials and all.
    const error = new Error(`request to ${CALENDAR_URL}/days/${day} failed, reason: getaddrinfo ENOTFOUND calendar.corp.internal`);
    error.code = 'ENOTFOUND';
    throw error;
  }
}
