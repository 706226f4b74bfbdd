package dev.warden.core.transport;

import java.util.Optional;

/**
 * A transport that serves one HTTP request (2026-07-28 over Streamable HTTP) and can show that
 * request's headers, so the server can check {@code Mcp-Param-*} headers against the body.
 */
public interface RequestHeaders {

    /** The named header of the request (names compare case-insensitively), as sent. */
    Optional<String> header(String name);
}
