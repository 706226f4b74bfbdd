// Preloaded (node --import) into servers whose API origin is written into their code (Slack's,
// Brave's): their global fetch to that origin goes to the mock on 127.0.0.1 instead. The server's
// own code runs unchanged; UNTUNED_REDIRECT is "https://origin=http://127.0.0.1:port".
const [from, to] = (process.env.UNTUNED_REDIRECT ?? '').split('=');
if (from && to) {
  const real = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return url.startsWith(from) ? real(to + url.slice(from.length), init) : real(input, init);
  };
}
