// Drives the gateway's console in Debian's Chromium with Playwright (playwright-core: no browser of its
// own is downloaded), for ConsoleInChromiumEndToEndTest. Opens every page, searches an incident by its
// ref and opens it, and watches for anything a page ran: dialogs, console errors, page errors, scripts
// in the DOM. Saves screenshots in <outDir>; prints, as one JSON object, what it saw.
// Usage: node console-browser.mjs <consoleUrl> <ref> <outDir>
import { chromium } from 'playwright-core';
import path from 'node:path';

const [base, ref, outDir] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.WARDEN_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const out = { dialogs: [], consoleErrors: [], pageErrors: [], pages: {} };
try {
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  page.on('dialog', async (d) => { out.dialogs.push(d.message()); await d.dismiss(); });
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') out.consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => out.pageErrors.push(String(e)));
  // What a page holds that could run: script elements, event-handler attributes, javascript: links.
  const runnable = () => page.evaluate(() => ({
    scripts: document.querySelectorAll('script').length,
    handlers: [...document.querySelectorAll('*')].filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length,
    jsLinks: [...document.querySelectorAll('[href],[src]')].filter(e => /^\s*javascript:/i.test(e.getAttribute('href') ?? e.getAttribute('src'))).length,
    images: document.querySelectorAll('img').length,
  }));
  const shot = (name) => page.screenshot({ path: path.join(outDir, name), fullPage: true });
  // how wide the page is drawn: wider than the window means a cell's text did not wrap
  const widths = {};
  const width = async (name) => { widths[name] = await page.evaluate(() => document.documentElement.scrollWidth); };

  const upstreams = await page.goto(base);
  out.pages.upstreams = { status: upstreams.status(), csp: upstreams.headers()['content-security-policy'],
    rows: await page.locator('#upstreams tbody tr').count(), ...(await runnable()) };
  await shot('console-upstreams.png');
  await width('upstreams');

  await page.goto(new URL('/tools', base).href);
  out.pages.tools = {
    ...(await runnable()),
    charts: await page.locator('svg.chart').count(),
    bars: await page.locator('svg.chart.calls rect').count(),
    lines: await page.locator('svg.chart.latency polyline').count(),
    // each chart's drawn size: a chart that renders has an area
    sizes: await page.locator('svg.chart').evaluateAll(svgs => svgs.map(s => s.getBoundingClientRect().width * s.getBoundingClientRect().height)),
    titles: await page.locator('section.tool h2').allTextContents(),
    styled: await page.locator('svg.chart.calls rect.ok').first().evaluate(r => getComputedStyle(r).fill),
  };
  await shot('console-tools.png');
  await width('tools');

  await page.goto(new URL('/incidents', base).href);
  out.pages.incidents = { ...(await runnable()), rows: await page.locator('#incidents tbody tr').count() };
  await width('incidents');
  await page.fill('#ref', ref);
  await Promise.all([page.waitForURL('**/incidents/' + ref), page.click('#search')]);
  out.pages.incident = { ...(await runnable()), url: page.url(), ref: await page.locator('#incident-ref').textContent(),
    original: await page.locator('#original').textContent() };
  await shot('console-incident.png');
  await width('incident');

  await page.goto(new URL('/audit', base).href);
  out.pages.audit = { ...(await runnable()), rows: await page.locator('#audit tbody tr').count() };
  await shot('console-audit.png');
  await width('audit');

  await page.goto(new URL('/pins', base).href);
  out.pages.pins = { ...(await runnable()) };
  await width('pins');

  // a ref read out in upper case, pasted in the search box, opens the same incident
  await page.goto(new URL('/incidents', base).href);
  await page.fill('#ref', ref.toUpperCase());
  await Promise.all([page.waitForURL('**/incidents/' + ref), page.click('#search')]);
  out.pages.upperCaseRef = { url: page.url() };

  // an incident that is not there is still an incidents page (in a page of its own: Chromium logs a 404 as an error)
  const other = await browser.newPage();
  const missing = await other.goto(new URL('/incidents/ref_' + 'a'.repeat(16), base).href);
  out.pages.missing = { status: missing.status(), tab: await other.locator('nav a.here').textContent() };
  out.widths = widths;
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
