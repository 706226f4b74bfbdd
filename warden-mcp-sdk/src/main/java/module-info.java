/**
 * Warden's errors, in process, for servers written with the official MCP Java SDK
 * ({@code io.modelcontextprotocol.sdk}): {@link dev.warden.adapter.mcpsdk.WardenGuard} wraps the
 * server's tool, resource, prompt and completion specifications and decorates its transports' JSON
 * mapper, so that no exception text, stack or cause chain reaches the client, only Warden's code
 * and a ref. The SDK's jars are automatic modules, required by their manifest names.
 */
module dev.warden.adapter.mcpsdk {
    requires transitive dev.warden.core;
    requires dev.warden.server;
    requires transitive io.modelcontextprotocol.sdk.mcp.core;
    requires reactor.core;
    requires org.reactivestreams;

    exports dev.warden.adapter.mcpsdk;
}
