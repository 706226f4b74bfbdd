package dev.warden.core.transport;

/**
 * A transport that carries one MCP session known by an id the server gave (Streamable HTTP's
 * {@code Mcp-Session-Id}): telemetry names the session by it ({@code mcp.session.id}, as a digest).
 */
public interface IdentifiedSession {

    String sessionId();
}
