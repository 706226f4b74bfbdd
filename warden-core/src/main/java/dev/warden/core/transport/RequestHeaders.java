package dev.warden.core.transport;

import java.util.List;
import java.util.Optional;

/**
 * A transport that serves one HTTP request (2026-07-28 over Streamable HTTP) and can show that
 * request's headers, so the server can check {@code Mcp-Param-*} headers against the body; also
 * what a transport keeps of one request's headers ({@link Transport#requestHeaders}).
 */
public interface RequestHeaders {

    /**
     * The W3C Trace Context headers: what an HTTP transport keeps of each request in flight (see
     * {@link Transport#requestHeaders}), and the fields a server continues its caller's trace from
     * when the request's {@code _meta} carries none (the same names, SEP-414).
     */
    List<String> TRACE_CONTEXT = List.of("traceparent", "tracestate");

    /**
     * The longest of them kept or sent: W3C Trace Context has vendors propagate at least 512
     * characters of {@code tracestate} and lets them drop a longer one; no {@code traceparent} is longer.
     */
    int TRACE_CONTEXT_MAX_LENGTH = 512;

    /** The named header of the request (names compare case-insensitively), as sent. */
    Optional<String> header(String name);
}
