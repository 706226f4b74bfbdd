// Signs in to the gateway's console in Debian's Chromium (playwright-core, no browser of its own), for
// ConsoleSignInInChromiumEndToEndTest: opens <consoleUrl>/incidents with no credential, follows the
// console's redirect to the real authorization server (oidc-provider, headless login) and back, and
// reports every page the browser landed on with its status, the console's cookie as the browser
// holds it, and anything a page ran. Saves <outDir>/<shot>.png; prints one JSON object.
// Usage: node console-signin.mjs <consoleUrl> <outDir> <shot>
import { chromium } from 'playwright-core';
import path from 'node:path';

const [base, outDir, shotName] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.WARDEN_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const out = { navigations: [], dialogs: [], pageErrors: [], consoleErrors: [] };
try {
  const context = await browser.newContext({ viewport: { width: 1300, height: 900 } });
  const page = await context.newPage();
  page.on('dialog', async (d) => { out.dialogs.push(d.message()); await d.dismiss(); });
  page.on('pageerror', (e) => out.pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') out.consoleErrors.push(m.text()); });
  page.on('response', (r) => {
    if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) {
      out.navigations.push({ url: r.url(), status: r.status(), location: r.headers().location ?? null });
    }
  });
  const target = new URL('/incidents', base).href;
  // A refusal (a page answered 4xx or 5xx) is where a sign-in ends too: no waiting it out.
  const refused = new Promise((resolve) => page.on('response', (r) => {
    if (r.request().isNavigationRequest() && r.frame() === page.mainFrame() && r.status() >= 400) resolve();
  }));
  await page.goto(target);
  // The callback's page moves on by itself (a meta refresh: no script); wait for where it lands.
  try {
    await Promise.race([page.waitForURL(target, { timeout: 15000 }), refused]);
    await page.waitForLoadState('load');
  } catch (e) {
    out.waitError = String(e);
  }
  out.url = page.url();
  out.h1 = await page.locator('h1').first().textContent().catch(() => null);
  out.body = (await page.locator('body').textContent().catch(() => '')).slice(0, 400);
  out.searchBox = await page.locator('input#ref').count(); // the incident search: the page a ref is pasted into
  out.scripts = await page.evaluate(() => document.querySelectorAll('script').length);
  // Cookies are per host, not port: the authorization server's own (same 127.0.0.1) are left out.
  out.cookies = (await context.cookies(base)).filter((c) => c.name === 'warden_console').map(({ name, httpOnly, sameSite, secure, path: p, expires }) =>
    ({ name, httpOnly, sameSite, secure, path: p, expires }));
  await page.screenshot({ path: path.join(outDir, shotName + '.png'), fullPage: true });
  if (out.cookies.length > 0) {
    // GET /logout only shows the form; signing out is its same-origin POST.
    await page.goto(new URL('/logout', base).href);
    await Promise.all([page.waitForNavigation(), page.click('#sign-out button')]);
    out.afterLogout = (await context.cookies(base)).filter((c) => c.name === 'warden_console').map((c) => c.name);
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
