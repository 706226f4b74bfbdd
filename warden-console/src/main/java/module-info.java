/**
 * The operator's console of {@code warden gateway}: a read-only web page on its own port (loopback
 * by default), behind the gateway's auth with an admin scope, showing the upstreams, per-tool
 * calls, errors and latency over the last hour, incidents by ref, the audit tail and changed
 * pinned definitions. Server-rendered HTML with inline SVG charts drawn here; no script at all.
 */
module dev.warden.console {
    requires transitive dev.warden.gateway;
    // HostPolicy: the MCP endpoint's Host and Origin rules, against DNS rebinding.
    requires dev.warden.http;
    requires jdk.httpserver;
    requires owasp.encoder;

    exports dev.warden.console;
    // What the gateway's audit records are teed into: per-tool stats and the audit tail.
    exports dev.warden.console.feed;
}
