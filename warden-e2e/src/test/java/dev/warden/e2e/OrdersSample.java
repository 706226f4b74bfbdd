package dev.warden.e2e;

import dev.warden.testkit.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of the "orders" sample servers (samples/, docs/guides/sdk-comparison.md) started as its user
 * starts it, on a free port, with the seed failures' dependencies: a real PostgreSQL, a carrier API
 * whose host never resolves (.invalid), a template directory that does not exist.
 */
record OrdersSample(LinePeer peer, String url) implements AutoCloseable {

    static final Path SAMPLES = Path.of(System.getProperty("warden.samples.dir", "../samples")).toAbsolutePath()
            .normalize();
    /** The server's secrets and internals that the seeds put in exception messages. */
    static final String TOKEN = "tok_live_5f1e9c0ab7d3";
    static final String CARRIER = "http://carrier.orders.invalid:8443";
    static final String TEMPLATES = "/srv/orders-desk/templates";

    /** How each framework sample is launched; {@code listening} finds its port in its log. */
    enum Framework {
        SPRING_AI_MCP_TOOL("Spring AI @McpTool", false),
        SPRING_AI_TOOL("Spring AI @Tool", false, "--spring.profiles.active=tool"),
        QUARKUS("Quarkus MCP server @Tool", true),
        SPRING_AI_MCP_TOOL_HOOKED("Spring AI @McpTool + hook", false, "--orders.hook=true"),
        SPRING_AI_TOOL_HOOKED("Spring AI @Tool + hook", false, "--spring.profiles.active=tool", "--orders.hook=true");

        final String title;
        final boolean quarkus;
        final List<String> args;

        Framework(String title, boolean quarkus, String... args) {
            this.title = title;
            this.quarkus = quarkus;
            this.args = List.of(args);
        }

        Path jar() {
            return quarkus ? SAMPLES.resolve("orders-quarkus/target/quarkus-app/quarkus-run.jar")
                    : SAMPLES.resolve("orders-spring-ai/target/warden-sample-orders-spring-ai-0.1.0-SNAPSHOT-exec.jar");
        }
    }

    // Tomcat: "Tomcat started on port 41234 (http)"; Quarkus: "Listening on: http://0.0.0.0:41235".
    private static final Pattern LISTENING = Pattern.compile("(?:Tomcat started on port |Listening on: http://[^:]+:)(\\d+)");

    static OrdersSample start(Framework framework) throws Exception {
        LocalPostgres postgres = LocalPostgres.shared();
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java")));
        if (framework.quarkus) {
            command.addAll(List.of("-Dquarkus.http.port=0", "-Dquarkus.http.host=127.0.0.1"));
        }
        command.addAll(List.of("-jar", framework.jar().toString()));
        if (!framework.quarkus) {
            command.addAll(List.of("--server.port=0", "--server.address=127.0.0.1"));
        }
        command.addAll(framework.args);
        LinePeer peer = new LinePeer(command, Map.of("ORDERS_DB_URL", postgres.jdbcUrl(),
                "ORDERS_DB_USER", LocalPostgres.USER, "ORDERS_DB_PASSWORD", LocalPostgres.PASSWORD,
                "ORDERS_CARRIER_URL", CARRIER, "ORDERS_CARRIER_TOKEN", TOKEN, "ORDERS_TEMPLATES", TEMPLATES));
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
                return new OrdersSample(peer, "http://127.0.0.1:" + m.group(1) + "/mcp");
            }
        }
    }

    @Override
    public void close() throws Exception {
        peer.destroy();
    }
}
