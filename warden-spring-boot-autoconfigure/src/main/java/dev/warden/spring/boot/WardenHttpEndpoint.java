package dev.warden.spring.boot;

import dev.warden.http.server.McpHttpServer;
import java.net.URI;
import java.util.Optional;

/**
 * The MCP endpoint the application serves over Streamable HTTP, once it is started: its URL (with
 * the bound port when {@code warden.mcp.http.port=0}), and its counters for metrics.
 */
public interface WardenHttpEndpoint {

    /** The endpoint's URL; empty until the server is started. */
    Optional<URI> url();

    /** Sessions open now; 0 until started. */
    int sessionCount();

    /** What the server has refused or taken away from clients so far; empty until started. */
    Optional<McpHttpServer.Stats> stats();

    /** Whether it is serving. */
    boolean isRunning();
}
