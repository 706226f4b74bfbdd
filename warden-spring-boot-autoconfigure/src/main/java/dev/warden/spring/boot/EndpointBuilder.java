package dev.warden.spring.boot;

import dev.warden.core.identity.Authenticator;
import dev.warden.http.server.McpHttpServer;
import dev.warden.http.server.McpHttpServerBuilder;
import dev.warden.server.McpServer;
import java.util.LinkedHashSet;
import java.util.Optional;

/** {@code warden.mcp.http.*} onto Warden's HTTP builder, for its own Jetty and for the application's alike. */
final class EndpointBuilder {

    private EndpointBuilder() {
    }

    /** The builder for {@code server}'s endpoint; {@code host} is the interface the serving Jetty binds. */
    static McpHttpServerBuilder of(McpServer server, WardenProperties.Http properties, String host,
                                   Optional<Authenticator> authenticator) {
        McpHttpServerBuilder builder = McpHttpServer.builder().host(host).path(properties.path())
                .allowedHosts(new LinkedHashSet<>(properties.allowedHosts()))
                .allowedOrigins(new LinkedHashSet<>(properties.allowedOrigins()))
                .maxBodyBytes(properties.maxBodyBytes())
                .maxSessions(properties.maxSessions(), properties.maxSessionsPerAddress())
                .sessionIdleTimeout(properties.sessionIdleTimeout()).requestTimeout(properties.requestTimeout())
                .boundary(server.boundary()).onSession(server::connect);
        authenticator.ifPresent(builder::authenticator);
        if (properties.insecureNoAuth()) {
            builder.insecureNoAuth();
        }
        return builder;
    }
}
