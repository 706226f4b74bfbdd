// A warehouse inventory service on FastMCP (zod parameters, UserError for refusals the model
// should read, progress on a long export), written as its README shows; one bug left as it would
// ship (the stock database's error escaping with its DSN).
import { FastMCP, UserError } from 'fastmcp';
import { z } from 'zod';

const STOCK_DSN = 'mysql://stock_app:Sx4-Jr8m-Hc2q@stock-db-2.wh.internal:3306/stock';
const items = new Map([
  ['SKU-1001', { sku: 'SKU-1001', name: 'pallet jack', onHand: 12, reserved: 2 }],
  ['SKU-1002', { sku: 'SKU-1002', name: 'shrink wrap', onHand: 0, reserved: 0 }],
]);

const server = new FastMCP({ name: 'warehouse-inventory', version: '3.0.2' });

server.addTool({
  name: 'get_stock',
  description: 'Stock of one item by SKU (SKU- and four digits).',
  parameters: z.object({ sku: z.string().regex(/^SKU-\d{4}$/, 'a SKU looks like SKU-1234') }),
  execute: async ({ sku }) => {
    const item = items.get(sku);
    if (!item) throw new UserError(`No item with SKU ${sku}.`);
    return JSON.stringify(item);
  },
});

server.addTool({
  name: 'reserve_stock',
  description: 'Reserve a quantity of an item for an order.',
  parameters: z.object({ sku: z.string().regex(/^SKU-\d{4}$/), quantity: z.number().int().min(1).max(1000) }),
  execute: async ({ sku, quantity }) => {
    const item = items.get(sku);
    if (!item) throw new UserError(`No item with SKU ${sku}.`);
    const free = item.onHand - item.reserved;
    if (quantity > free) throw new UserError(`Only ${free} of ${sku} are free to reserve; ${quantity} asked.`);
    item.reserved += quantity;
    return `Reserved ${quantity} of ${sku}.`;
  },
});

server.addTool({
  name: 'recount',
  description: 'Recount an aisle against the stock database.',
  parameters: z.object({ aisle: z.number().int().min(1).max(40) }),
  execute: async ({ aisle }) => {
    throw new Error(`ER_ACCESS_DENIED_ERROR: Access denied for user 'stock_app'@'10.4.0.12' (using password: YES) at ${STOCK_DSN} (aisle ${aisle})`);
  },
});

server.addTool({
  name: 'export_report',
  description: 'Export the stock report, reporting progress page by page.',
  parameters: z.object({ pages: z.number().int().min(1).max(500) }),
  execute: async ({ pages }, { reportProgress }) => {
    for (let page = 1; page <= pages; page++) {
      await reportProgress({ progress: page, total: pages });
      await new Promise((r) => setTimeout(r, 20)); // rendering a page
    }
    return `Exported ${pages} pages.`;
  },
});

server.start({ transportType: 'stdio' });
