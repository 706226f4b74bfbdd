package dev.warden.e2e;

import dev.warden.adapter.mcpsdk.WardenGuard;
import dev.warden.core.incident.FileIncidentStore;
import dev.warden.testkit.LocalPostgres;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import orders.desk.DeskConfig;
import orders.desk.OrderDesk;
import orders.mcpsdk.OrdersMcpSdkServer;
import orders.warden.OrdersWardenServer;

/**
 * One of the "orders" sample servers (samples/, docs/guides/sdk-comparison.md) started with the seed
 * failures' dependencies: a real PostgreSQL, a carrier API whose host never resolves (.invalid), a
 * template directory that does not exist. The Spring AI and Quarkus samples run as processes, as
 * their users start them (java -jar, a free port); the official-SDK and Warden samples, plain Java
 * servers whose class path this module has, run in this JVM (their own Jetty, a free port).
 */
record OrdersSample(AutoCloseable running, String url) implements AutoCloseable {

    static final Path SAMPLES = Path.of(System.getProperty("warden.samples.dir", "../samples")).toAbsolutePath()
            .normalize();
    /** The server's secrets and internals that the seeds put in exception messages. */
    static final String TOKEN = "tok_live_5f1e9c0ab7d3";
    static final String CARRIER = "http://carrier.orders.invalid:8443";
    static final String TEMPLATES = "/srv/orders-desk/templates";
    /** Where the Warden columns keep their incidents. */
    static final Path INCIDENTS = Path.of("target/sdk-comparison/incidents").toAbsolutePath();

    enum Launch {
        SPRING_AI, QUARKUS, OFFICIAL_SDK, OFFICIAL_SDK_GUARDED, WARDEN
    }

    /** The table's columns, in order, and how each is launched. */
    enum Framework {
        OFFICIAL_SDK("official MCP Java SDK", Launch.OFFICIAL_SDK),
        OFFICIAL_SDK_GUARDED("official SDK + `WardenGuard`", Launch.OFFICIAL_SDK_GUARDED),
        SPRING_AI_MCP_TOOL("Spring AI @McpTool", Launch.SPRING_AI),
        SPRING_AI_TOOL("Spring AI @Tool", Launch.SPRING_AI, "--spring.profiles.active=tool"),
        SPRING_AI_WARDEN("Spring AI @McpTool + `warden-spring-ai`", Launch.SPRING_AI,
                "--warden.spring-ai.enabled=true"),
        QUARKUS("Quarkus MCP server @Tool", Launch.QUARKUS),
        WARDEN("Warden @Tool", Launch.WARDEN);

        final String title;
        final Launch launch;
        final List<String> args;

        Framework(String title, Launch launch, String... args) {
            this.title = title;
            this.launch = launch;
            this.args = List.of(args);
        }

        boolean inProcess() {
            return launch != Launch.SPRING_AI && launch != Launch.QUARKUS;
        }

        /** The runnable jar a process column needs. */
        Optional<Path> jar() {
            return switch (launch) {
                case QUARKUS -> Optional.of(SAMPLES.resolve("orders-quarkus/target/quarkus-app/quarkus-run.jar"));
                case SPRING_AI -> Optional.of(SAMPLES.resolve(
                        "orders-spring-ai/target/warden-sample-orders-spring-ai-0.1.0-SNAPSHOT-exec.jar"));
                case OFFICIAL_SDK, OFFICIAL_SDK_GUARDED, WARDEN -> Optional.empty();
            };
        }

        boolean available() {
            return jar().map(Files::exists).orElse(true);
        }
    }

    static Map<String, String> environment() {
        LocalPostgres postgres = LocalPostgres.shared();
        return Map.of("ORDERS_DB_URL", postgres.jdbcUrl(), "ORDERS_DB_USER", LocalPostgres.USER,
                "ORDERS_DB_PASSWORD", LocalPostgres.PASSWORD, "ORDERS_CARRIER_URL", CARRIER,
                "ORDERS_CARRIER_TOKEN", TOKEN, "ORDERS_TEMPLATES", TEMPLATES,
                "WARDEN_DATA_DIR", INCIDENTS.resolveSibling("warden-data").toString());
    }

    /** The desk the in-process servers share; preparing it first creates the table before any process starts. */
    static OrderDesk desk() {
        return new OrderDesk(DeskConfig.fromEnvironment(environment())).prepare();
    }

    static OrdersSample start(Framework framework, OrderDesk desk) throws Exception {
        return switch (framework.launch) {
            case OFFICIAL_SDK -> local(OrdersMcpSdkServer.start(desk, 0, Optional.empty()), OrdersMcpSdkServer::port);
            case OFFICIAL_SDK_GUARDED -> {
                FileIncidentStore store = FileIncidentStore.open(INCIDENTS.resolve("official-sdk"));
                WardenGuard guard = WardenGuard.builder().incidents(store).build();
                OrdersMcpSdkServer server = OrdersMcpSdkServer.start(desk, 0, Optional.of(guard));
                yield new OrdersSample(() -> {
                    server.close();
                    guard.close();
                    store.close();
                }, url(server.port()));
            }
            case WARDEN -> {
                FileIncidentStore store = FileIncidentStore.open(INCIDENTS.resolve("warden"));
                OrdersWardenServer server = OrdersWardenServer.start(desk, 0, Optional.of(store));
                yield new OrdersSample(() -> {
                    server.close();
                    store.close();
                }, url(server.port()));
            }
            case SPRING_AI, QUARKUS -> process(framework);
        };
    }

    private static <S extends AutoCloseable> OrdersSample local(S server, java.util.function.ToIntFunction<S> port) {
        return new OrdersSample(server, url(port.applyAsInt(server)));
    }

    private static String url(int port) {
        return URI.create("http://127.0.0.1:" + port + "/mcp").toString();
    }

    // Tomcat: "Tomcat started on port 41234 (http)"; Quarkus: "Listening on: http://0.0.0.0:41235".
    private static final Pattern LISTENING = Pattern.compile("(?:Tomcat started on port |Listening on: http://[^:]+:)(\\d+)");

    private static OrdersSample process(Framework framework) throws Exception {
        boolean quarkus = framework.launch == Launch.QUARKUS;
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java")));
        if (quarkus) {
            command.addAll(List.of("-Dquarkus.http.port=0", "-Dquarkus.http.host=127.0.0.1"));
        }
        command.addAll(List.of("-jar", framework.jar().orElseThrow().toString()));
        if (!quarkus) {
            command.addAll(List.of("--server.port=0", "--server.address=127.0.0.1"));
        }
        command.addAll(framework.args);
        LinePeer peer = new LinePeer(command, environment());
        // A hang guard, not a speed check: read the log until the server names its port.
        StringBuilder log = new StringBuilder();
        while (true) {
            String line;
            try {
                line = peer.nextLine(Duration.ofSeconds(120));
            } catch (AssertionError e) {
                peer.destroy();
                throw new AssertionError(framework + " did not start; log:\n" + log + "\nstderr:\n"
                        + Files.readString(peer.stderr), e);
            }
            log.append(line).append('\n');
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                return new OrdersSample(peer::destroy, "http://127.0.0.1:" + m.group(1) + "/mcp");
            }
        }
    }

    @Override
    public void close() throws Exception {
        running.close();
    }
}
