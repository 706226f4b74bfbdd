// A room-booking service on mcp-framework (class-based tools found under dist/tools, zod schemas
// with descriptions), as its template lays it out.
import { MCPServer } from 'mcp-framework';

const server = new MCPServer({ name: 'room-bookings', version: '2.1.0' });
await server.start();
