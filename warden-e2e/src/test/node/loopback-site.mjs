// A small web site on 127.0.0.1 for the fetch server in the differential suite, reached as
// http://docs.warden-e2e.invalid/… through a forward proxy (the same listener): mcp-fetch-server
// refuses loopback and private addresses by name (its SSRF guard), and no outside network exists
// here, so the server gets HTTP_PROXY pointing at this listener and NODE_USE_ENV_PROXY=1 (Node ≥ 22.21).
// Node's fetch tunnels plain http through CONNECT too, so CONNECT is answered on the same server.
import http from 'node:http';

export const HOST = 'docs.warden-e2e.invalid';

const PAGES = {
  '/article.html': ['text/html; charset=utf-8', `<!doctype html>
<html><head><title>Analytical Engine notes</title><style>p { margin: 0 }</style></head>
<body><nav><a href="/">Home</a> · <a href="/about">About</a></nav>
<article><h1>Analytical Engine notes</h1>
<p>Ada Lovelace wrote the first published program in 1843, for Bernoulli numbers.</p>
<p>The mill computes; the store keeps 1000 numbers of 50 digits each.</p>
<p>Ordinary text that only looks sensitive: the replica db-7.internal.example:5432, the file
/var/lib/engine/config.yml, the query SELECT id FROM cards WHERE id = 42, commit
3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 and order 123e4567-e89b-12d3-a456-426614174000.</p>
<ul><li>Store</li><li>Mill</li><li>Reader</li></ul>
</article><script>console.log('not text')</script></body></html>
`],
  '/data.json': ['application/json', JSON.stringify({
    engine: 'analytical', designed: 1837, parts: ['store', 'mill', 'reader'],
    operations: { add: 1, multiply: 2 }, notes: 'Bernoulli numbers', checksum: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  })],
  '/plain.txt': ['text/plain; charset=utf-8', 'Plain text from the loopback site.\nSecond line.\n'],
};

/** Starts the site; resolves to { proxyUrl, base, close() }. */
export async function startSite() {
  const server = http.createServer((req, res) => {
    const path = new URL(req.url, `http://${HOST}`).pathname;
    const page = PAGES[path];
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such page');
      return;
    }
    res.writeHead(200, { 'content-type': page[0] });
    res.end(page[1]);
  });
  server.on('connect', (req, socket, head) => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) socket.unshift(head);
    server.emit('connection', socket);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxyUrl = `http://127.0.0.1:${server.address().port}`;
  return {
    proxyUrl,
    base: `http://${HOST}`,
    close: () => { server.closeAllConnections(); server.close(); },
  };
}
