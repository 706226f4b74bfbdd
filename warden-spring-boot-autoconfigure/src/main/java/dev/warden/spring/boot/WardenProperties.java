package dev.warden.spring.boot;

import dev.warden.core.incident.DataDirectory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.env.PropertyResolver;

/**
 * Everything the starter reads, under {@code warden.mcp}. Defaults are Warden's own (loopback, port
 * 8090, {@code /mcp}), so an application that sets nothing serves its tools on a port only this
 * machine reaches.
 *
 * @param name         The server's name in {@code initialize}; {@code spring.application.name} when unset
 * @param version      The server's version in {@code initialize}
 * @param title        A human-readable name for the server
 * @param instructions What the server tells the model about using its tools
 * @param resourceSubscriptions Whether clients may subscribe to resources
 * @param http         Streamable HTTP
 * @param stdio        Stdio, for desktop clients that start the application themselves
 * @param incidents    The incident store
 * @param telemetry    OpenTelemetry spans and metrics of the server
 */
@ConfigurationProperties("warden.mcp")
public record WardenProperties(Optional<String> name, @DefaultValue("1.0.0") String version, Optional<String> title,
                               Optional<String> instructions, @DefaultValue("false") boolean resourceSubscriptions,
                               @DefaultValue Http http, @DefaultValue Stdio stdio, @DefaultValue Incidents incidents,
                               @DefaultValue Telemetry telemetry) {

    /** The prefix every property of the starter has. */
    public static final String PREFIX = "warden.mcp";

    /**
     * Streamable HTTP.
     *
     * @param enabled        Whether to serve over HTTP; when unset, unless stdio is enabled
     * @param server         {@code own}: Warden's Jetty on its own port; {@code application}: the
     *                       application's web server (Jetty only), at {@code path}
     * @param host           The interface Warden's own server binds (own server only)
     * @param port           Its port; 0 picks a free one (own server only)
     * @param path           The MCP endpoint's path
     * @param allowedHosts   Names clients may use in Host and Origin; loopback names when empty
     * @param allowedOrigins Other origins browsers may call from
     * @param maxBodyBytes   The largest request body
     * @param maxSessions    Sessions open at once
     * @param maxSessionsPerAddress Sessions open at once from one remote address
     * @param sessionIdleTimeout    How long an idle session is kept
     * @param requestTimeout How long a client may take to send a request
     * @param insecureNoAuth Serve a non-loopback host with no authenticator (something in front authenticates)
     */
    public record Http(Optional<Boolean> enabled, @DefaultValue("own") ServerKind server,
                       @DefaultValue("127.0.0.1") String host, @DefaultValue("8090") int port,
                       @DefaultValue("/mcp") String path, @DefaultValue List<String> allowedHosts,
                       @DefaultValue List<String> allowedOrigins, @DefaultValue("4194304") int maxBodyBytes,
                       @DefaultValue("10000") int maxSessions, @DefaultValue("1000") int maxSessionsPerAddress,
                       @DefaultValue("10m") Duration sessionIdleTimeout, @DefaultValue("30s") Duration requestTimeout,
                       @DefaultValue("false") boolean insecureNoAuth) {
        public Http {
            allowedHosts = List.copyOf(allowedHosts);
            allowedOrigins = List.copyOf(allowedOrigins);
        }
    }

    /** Which web server carries the MCP endpoint. */
    public enum ServerKind {
        /** Warden's own Jetty, on its own port: any application (Tomcat, Jetty, none). */
        OWN,
        /** The application's own Jetty, on its port, beside Spring MVC. */
        APPLICATION
    }

    /**
     * Stdio: the application speaks MCP on stdin and stdout, and stdout carries nothing else (no
     * banner; logs go to stderr).
     *
     * @param enabled Whether to serve over stdio
     */
    public record Stdio(@DefaultValue("false") boolean enabled) {
    }

    /**
     * The incident store: where the full detail of each failure goes, looked up by its ref
     * ({@code warden incidents show REF --data-dir ...}). An {@code IncidentSink} bean replaces it.
     *
     * @param dir The store's directory; when unset, where the {@code warden} command looks:
     *            {@code $WARDEN_DATA_DIR/incidents}, else {@code $XDG_DATA_HOME/warden/incidents}, else
     *            {@code ~/.local/share/warden/incidents} (a string: Boot converts no text to an
     *            {@code Optional<Path>})
     */
    public record Incidents(Optional<String> dir) {
        /**
         * The store's directory: the configured one, or core's {@link DataDirectory} default with the
         * variables and {@code user.home} read from {@code environment} (Spring's includes the process's).
         * A directory, not an incidents one, when configured: the property names the store itself.
         */
        public Path directory(PropertyResolver environment) {
            if (dir.isPresent()) {
                return Path.of(dir.get());
            }
            return DataDirectory.incidents(Optional.empty(), name -> Optional.ofNullable(environment.getProperty(name)),
                    Path.of(environment.getRequiredProperty("user.home")));
        }
    }

    /**
     * OpenTelemetry spans and metrics of the server, through the application's {@code OpenTelemetry}
     * bean (docs/reference/telemetry.md has the names).
     *
     * @param captureToolCalls Whether tool calls' arguments and results go on their spans
     *                         ({@code gen_ai.tool.call.arguments}, {@code gen_ai.tool.call.result}),
     *                         each as Warden's sanitizer leaves it; needs an {@code OpenTelemetry} bean,
     *                         and an application's own {@code McpTelemetry} bean decides for itself
     */
    public record Telemetry(@DefaultValue("false") boolean captureToolCalls) {
    }

    /** Whether HTTP is on: as configured, or else whenever stdio is off. */
    public boolean httpEnabled() {
        return http.enabled().orElse(!stdio.enabled());
    }
}
