package dev.warden.cli;

import dev.warden.gateway.config.GatewayConfig;
import dev.warden.http.server.McpHttpServer;
import dev.warden.http.server.McpHttpServerBuilder;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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
    McpHttpServerBuilder applyTo(McpHttpServerBuilder server) {
        return applyTo(server, GatewayConfig.Http.Sessions.unset(), Set.of());
    }

    /**
     * Applies what was given over the configuration file's {@code http.sessions} and
     * {@code http.allowedOrigins}: a flag wins over its key; the server's defaults stand for the rest.
     * Portable sessions ({@code http.sessions.portable}) have no flag: their keys belong in a file.
     */
    McpHttpServerBuilder applyTo(McpHttpServerBuilder server, GatewayConfig.Http.Sessions file,
            Set<String> fileOrigins) {
        Optional<Integer> total = Optional.ofNullable(maxSessions).or(file::max);
        Optional<Integer> perAddress = Optional.ofNullable(maxSessionsPerAddress).or(file::maxPerAddress);
        if (total.isPresent() || perAddress.isPresent()) {
            int all = total.orElse(McpHttpServer.DEFAULT_MAX_SESSIONS);
            server.maxSessions(all, perAddress.orElse(Math.min(McpHttpServer.DEFAULT_MAX_SESSIONS_PER_ADDRESS, all)));
        }
        Optional.ofNullable(sessionIdleSeconds).map(Duration::ofSeconds).or(file::idleTimeout)
                .ifPresent(server::sessionIdleTimeout);
        file.portable().ifPresent(p -> server.portableSessions(SessionKeyFile.read(p.keyFile()), p.maxAge()));
        if (allowedOrigins != null) {
            server.allowedOrigins(new LinkedHashSet<>(allowedOrigins));
        } else if (!fileOrigins.isEmpty()) {
            server.allowedOrigins(fileOrigins);
        }
        return server;
    }
}
