// An order desk on the official TypeScript SDK's McpServer with zod schemas, written as a team
// would: input validated by the SDK, business refusals as isError results, and one bug (an
// unexpected exception carrying the ledger's connection string) left as it would ship.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const LEDGER_URL = 'postgres://ledger_rw:Lg7-Qp2x-Vb9k@ledger-db-3.payments.internal:5432/ledger';
const orders = new Map([
  ['ord_1001', { id: 'ord_1001', customer: 'cus_17', capturedCents: 2500, status: 'paid' }],
  ['ord_1002', { id: 'ord_1002', customer: 'cus_42', capturedCents: 9900, status: 'refunded' }],
]);
const customers = new Map([['ada@example.com', { id: 'cus_17', email: 'ada@example.com', name: 'Ada' }]]);

const server = new McpServer({ name: 'order-desk', version: '1.4.0' });
const text = (value) => ({ content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] });
const refuse = (message) => ({ content: [{ type: 'text', text: message }], isError: true });

server.registerTool('get_order', {
  description: 'Look up an order by its id (ord_ and four digits).',
  inputSchema: { orderId: z.string().regex(/^ord_\d{4}$/, 'must look like ord_1234') },
}, async ({ orderId }) => {
  const order = orders.get(orderId);
  return order ? text(order) : refuse(`Order ${orderId} not found.`);
});

server.registerTool('refund_order', {
  description: 'Refund part or all of an order.',
  inputSchema: { orderId: z.string().regex(/^ord_\d{4}$/), amountCents: z.number().int().positive() },
}, async ({ orderId, amountCents }) => {
  const order = orders.get(orderId);
  if (!order) return refuse(`Order ${orderId} not found.`);
  if (order.status === 'refunded') return refuse(`Order ${orderId} is already refunded.`);
  if (amountCents > order.capturedCents) {
    return refuse(`Refund of ${amountCents} cents exceeds the ${order.capturedCents} cents captured on ${orderId}.`);
  }
  return text({ refund: `re_${orderId.slice(4)}`, orderId, amountCents });
});

server.registerTool('create_customer', {
  description: 'Create a customer.',
  inputSchema: { email: z.string().email(), name: z.string().min(1).max(80) },
}, async ({ email, name }) => {
  if (customers.has(email)) return refuse(`A customer with email ${email} already exists.`);
  const customer = { id: `cus_${customers.size + 100}`, email, name };
  customers.set(email, customer);
  return text(customer);
});

server.registerTool('sync_ledger', {
  description: 'Push the day\'s orders to the ledger.',
  inputSchema: { day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD') },
}, async ({ day }) => {
  // The bug as it ships: the driver's error, with the URL it was given, escapes the handler.
  throw new Error(`connect ECONNREFUSED 10.20.3.7:5432 (${LEDGER_URL}) while syncing ${day}`);
});

await server.connect(new StdioServerTransport());
