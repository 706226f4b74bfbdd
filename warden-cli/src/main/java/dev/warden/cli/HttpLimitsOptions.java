package dev.warden.cli;

import dev.warden.http.server.McpHttpServer;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import picocli.CommandLine.Option;

/** The Streamable HTTP server's bounds and Origin allowlist, as options of the commands that serve HTTP. */
final class HttpLimitsOptions {

    @Option(names = "--max-sessions", paramLabel = "N",
            description = "Most sessions open at once (default 10000); at the cap the session idle for longest is "
                    + "closed, and an initialize is refused (503) when none is idle.")
    Integer maxSessions;

    @Option(names = "--max-sessions-per-address", paramLabel = "N",
            description = "Most sessions open from one remote address (default 1000).")
    Integer maxSessionsPerAddress;

    @Option(names = "--session-idle-timeout", paramLabel = "SECONDS",
            description = "Close a session with no request in flight and no stream open after this long (default 600).")
    Long sessionIdleSeconds;

    @Option(names = "--allowed-origin", paramLabel = "ORIGIN",
            description = "A browser origin (scheme://host:port) allowed besides the server's own, such as an "
                    + "inspector on another local port; repeatable. Other origins are refused (403).")
    List<String> allowedOrigins;

    /** Applies what was given; the server's defaults stand for the rest. */
    McpHttpServer.Builder applyTo(McpHttpServer.Builder server) {
        if (maxSessions != null || maxSessionsPerAddress != null) {
            int total = maxSessions != null ? maxSessions : 10_000;
            int perAddress = maxSessionsPerAddress != null ? maxSessionsPerAddress : Math.min(1_000, total);
            server.maxSessions(total, perAddress);
        }
        if (sessionIdleSeconds != null) {
            server.sessionIdleTimeout(Duration.ofSeconds(sessionIdleSeconds));
        }
        if (allowedOrigins != null) {
            server.allowedOrigins(new LinkedHashSet<>(allowedOrigins));
        }
        return server;
    }
}
