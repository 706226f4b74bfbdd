package dev.warden.cli;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.transport.StdioTransport;
import dev.warden.gateway.auditlog.AuditSink;
import dev.warden.gateway.config.ConfigException;
import dev.warden.gateway.Gateway;
import dev.warden.gateway.config.GatewayConfig;
import dev.warden.http.server.McpHttpServer;
import dev.warden.http.server.McpHttpServerBuilder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code warden gateway --config FILE}: Warden in front of several MCP servers, served over
 * Streamable HTTP (or stdio), configured by {@code warden.yaml} or a client's {@code mcpServers} JSON.
 */
@Command(name = "gateway", mixinStandardHelpOptions = true, modelTransformer = GatewayCommand.Wording.class,
        description = {"Serves the upstreams named in FILE (warden.yaml, or the mcpServers JSON of Claude Desktop, "
                + "Claude Code or Cursor) as one MCP server: over Streamable HTTP when the file has \"http\" or "
                + "--port is given, else over stdio. Tools and prompts are named <upstream>__<name> when there are "
                + "several upstreams."})
final class GatewayCommand implements Callable<Integer> {

    /** The options {@link GatewayArguments} also reads, named once. */
    static final String CONFIG = "--config";
    static final String PORT = "--port";

    @Option(names = CONFIG, required = true, paramLabel = "FILE", description = "The configuration file.")
    Path config;

    @Option(names = PORT, paramLabel = "PORT",
            description = "Serve Streamable HTTP on this port (0 picks one), overriding the file's http.port.")
    Integer port;

    @Option(names = "--insecure-no-auth",
            description = "Serve a host that is not loopback, and its metrics, to anyone who can reach them, with no "
                    + "authentication. Only behind something in front that authenticates every request.")
    boolean insecureNoAuth;

    @Mixin
    ServeOptions serve = new ServeOptions();

    @Mixin
    HttpLimitsOptions httpLimits = new HttpLimitsOptions();

    @Mixin
    DrainOptions drain = new DrainOptions();

    @Mixin
    ConsoleOptions console = new ConsoleOptions();

    /** The configuration file may name the data directory and the message limit. */
    static final class Wording implements CommandLine.IModelTransformer {
        @Override
        public CommandLine.Model.CommandSpec transform(CommandLine.Model.CommandSpec command) {
            return OwnWording.apply(command, Map.of(
                    DataDirOption.NAME, "Keep incidents in the store under DIR/incidents (default: the file's dataDir, "
                            + "$WARDEN_DATA_DIR, $XDG_DATA_HOME/warden or ~/.local/share/warden).",
                    MaxMessageBytesOption.NAME, "Largest message accepted from a client or an upstream, both ways "
                            + "(default: the file's maxMessageBytes, else " + MaxMessageBytesOption.DEFAULT + ")."));
        }
    }

    @Override
    public Integer call() throws Exception {
        GatewayConfig cfg;
        try {
            cfg = GatewayConfig.load(config, serve.maxMessageBytes.given());
            SessionKeyFile.of(cfg); // a bad key file stops the start here, not after the upstreams are up
        } catch (ConfigException e) {
            System.err.println("warden gateway: " + e.getMessage());
            return 2;
        }
        java.util.Set<String> allowedHosts = cfg.http().map(GatewayConfig.Http::allowedHosts).orElse(java.util.Set.of());
        if (cfg.metrics().isPresent() && allowedHosts.isEmpty()
                && !dev.warden.http.server.HostPolicy.isLoopback(cfg.metrics().get().host())) {
            System.err.println("warden gateway: metrics.host " + cfg.metrics().get().host() + " is not a loopback "
                    + "address: set http.allowedHosts to the names Prometheus uses to reach it");
            return 2;
        }
        Optional<String> exposed = cfg.http().map(GatewayConfig.Http::host)
                .filter(h -> !dev.warden.http.server.HostPolicy.isLoopback(h));
        if (exposed.isPresent() && cfg.auth().isEmpty() && !insecureNoAuth) {
            System.err.println("warden gateway: http.host " + exposed.get() + " is not a loopback address and no auth "
                    + "is configured: anyone who reaches it could call every tool of every upstream; add an \"auth\" "
                    + "section (OAuth issuers or API keys, see docs/reference/auth.md), or pass --insecure-no-auth if something "
                    + "in front authenticates every request");
            return 2;
        }
        if (cfg.metrics().isPresent() && cfg.metrics().get().token().isEmpty() && !insecureNoAuth
                && !dev.warden.http.server.HostPolicy.isLoopback(cfg.metrics().get().host())) {
            System.err.println("warden gateway: metrics.host " + cfg.metrics().get().host() + " is not a loopback "
                    + "address: set metrics.token, the bearer token Prometheus presents (or --insecure-no-auth)");
            return 2;
        }
        Optional<String> consoleProblem = console.problem(cfg.auth(), allowedHosts, insecureNoAuth);
        if (consoleProblem.isPresent()) {
            System.err.println("warden gateway: " + consoleProblem.get());
            return 2;
        }
        IncidentSink log = serve.incidentLog.besideTheStore(cfg.incidents());
        Path incidents = serve.dataDir.incidents(cfg.dataDir());
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Gateway.Builder builder = Gateway.builder().namespacing(cfg.separator(), cfg.prefixAlways())
                .maxMessageBytes(cfg.maxMessageBytes()).metrics(registry);
        cfg.upstreams().forEach(builder::upstream);
        cfg.perClient().ifPresent(builder::perClient);
        cfg.access().ifPresent(builder::access);
        cfg.auth().ifPresent(auth -> builder.toolScopes(auth::scopesForTool));
        builder.parkedCalls(cfg.parked().total(), cfg.parked().perClient());
        SharedStores shared;
        try {
            shared = SharedStores.open(cfg.redis(), SessionKeyFile.of(cfg), builder);
        } catch (IllegalStateException e) {
            System.err.println("warden gateway: " + e.getMessage());
            return 2;
        }
        Stores stores;
        try {
            stores = Stores.open(cfg, incidents);
        } catch (java.sql.SQLException e) {
            shared.close();
            System.err.println("warden gateway: postgres: " + e.getMessage());
            return 1;
        } catch (java.io.IOException | RuntimeException e) {
            shared.close(); // Redis is not left connected whatever kept the stores from opening
            throw e;
        }
        stores.postgresReadiness().ifPresent(builder::healthCheck);
        // The MCP endpoint once bound: the console's resource for the gateway's tokens (auth without a resource).
        java.util.concurrent.atomic.AtomicReference<java.net.URI> endpoint = new java.util.concurrent.atomic.AtomicReference<>();
        try (shared; stores;
             MetricsEndpoint metrics = MetricsEndpoint.start(cfg.metrics(), allowedHosts, registry, insecureNoAuth);
             Gateway gateway = builder.incidents(IncidentSink.all(stores.incidents(), log))
                     .audit(console.audit(cfg.audit().enabled() ? stores.audit() : AuditSink.none()),
                             cfg.audit().failClosed())
                     .build();
             AutoCloseable consoleServer = console.start(gateway, stores.incidents(),
                     cfg.audit().enabled() ? Optional.of(stores.auditLog()) : Optional.empty(), cfg.auth(), endpoint,
                     allowedHosts, insecureNoAuth)) {
            Optional<GatewayConfig.Http> http = cfg.http();
            if (http.isEmpty() && port == null) {
                gateway.serveStdio();
                return 0;
            }
            McpHttpServerBuilder server = httpLimits.applyTo(McpHttpServer.builder().maxBodyBytes(cfg.maxMessageBytes())
                    .onSession(gateway::connect).boundary(gateway.boundary())
                    .admission(Draining.admission(gateway)),
                    http.map(GatewayConfig.Http::sessions).orElse(GatewayConfig.Http.Sessions.unset()),
                    http.map(GatewayConfig.Http::allowedOrigins).orElse(java.util.Set.of()));
            cfg.auth().ifPresent(server::authenticator);
            shared.replicas().ifPresent(server::replicas);
            if (insecureNoAuth) {
                server.insecureNoAuth();
            }
            http.ifPresent(h -> {
                server.host(h.host()).port(h.port()).path(h.path());
                if (!h.allowedHosts().isEmpty()) {
                    server.allowedHosts(h.allowedHosts());
                }
            });
            if (port != null) {
                server.port(port);
            }
            try (McpHttpServer running = server.build().start()) {
                endpoint.set(running.endpoint());
                HttpMetrics.register(registry, running);
                Draining.onTerm(gateway, running, drain.timeout);
                // The one line on stdout: scripts wait for it to learn the endpoint.
                System.out.println("warden gateway: serving " + cfg.upstreams().size() + " upstream(s) at "
                        + running.endpoint() + shared.startNote());
                System.out.flush();
                running.join();
            }
        }
        return 0;
    }
}
