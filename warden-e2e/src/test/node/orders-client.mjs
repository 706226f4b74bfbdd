// Calls the "orders" sample server's six tools (one success, five seed failures) with the official
// TypeScript SDK client over Streamable HTTP and prints, as one JSON object, what the client received
// for each: the result (isError, content, structuredContent) or the JSON-RPC error (code, message, data).
// Usage: node orders-client.mjs <url>   (SdkComparisonEndToEndTest, docs/guides/sdk-comparison.md)
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { capture as record } from './capture.mjs';

const SEEDS = {
  success: ['get_order', { order_id: 'ord_1001' }],
  npe: ['order_total', { order_id: 'ord_1002' }],
  sql: ['customer_orders', { customer: 'ada@example.com' }],
  token: ['track_shipment', { order_id: 'ord_1001' }],
  path: ['invoice', { order_id: 'ord_1001' }],
  validation: ['place_order', { sku: 'KB-42', quantity: 500 }],
};

const client = new Client({ name: 'warden-sdk-comparison', version: '1.0.0' });
const out = { calls: {} };
await record(out, 'connect', () => client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2]))));
if (out.connect.ok) {
  out.serverVersion = client.getServerVersion() ?? null;
  await record(out, 'listTools', async () => (await client.listTools()).tools.map((t) => t.name).sort());
  for (const [seed, [tool, args]] of Object.entries(SEEDS)) {
    await record(out.calls, seed, () => client.callTool({ name: tool, arguments: args }));
  }
  await client.close();
}
console.log(JSON.stringify(out));
