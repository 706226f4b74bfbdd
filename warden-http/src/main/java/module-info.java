/** Streamable HTTP for any session factory: the server side of MCP's HTTP transport. */
module dev.warden.http {
    requires transitive dev.warden.core;
    // transitive: McpHttpHandler hands a Jetty Handler to an application that owns its Jetty server.
    requires transitive org.eclipse.jetty.server;
    // transitive: McpHttpServerBuilder#telemetry takes an McpTelemetry (the spans of refused POSTs).
    requires transitive dev.warden.telemetry;

    exports dev.warden.http.server;
}
