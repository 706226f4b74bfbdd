/** Streamable HTTP for any session factory: the server side of MCP's HTTP transport. */
module dev.warden.http {
    requires transitive dev.warden.core;
    requires org.eclipse.jetty.server;

    exports dev.warden.http.server;
}
