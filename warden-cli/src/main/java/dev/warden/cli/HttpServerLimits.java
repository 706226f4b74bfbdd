package dev.warden.cli;

import java.util.Map;
import java.util.Properties;

/**
 * Bounds for the JDK's HTTP server, which serves the console and {@code /metrics}: without them it
 * waits forever for a request's headers and takes any number of connections, so whoever reaches
 * the port could hold connections open until the gateway runs out of file descriptors, before
 * any credential is asked for. The JDK reads these properties once, when its server first loads,
 * so they are set at the start of {@code main}; a value the operator set (in {@code
 * WARDEN_JAVA_OPTS}) stays.
 */
final class HttpServerLimits {

    /** Seconds to receive a whole request; then the connection is closed. */
    static final String MAX_REQUEST_SECONDS = "sun.net.httpserver.maxReqTime";
    /** Seconds to send a whole answer to a client that reads slowly. */
    static final String MAX_RESPONSE_SECONDS = "sun.net.httpserver.maxRspTime";
    /** Connections open at once; past it, new ones are closed as they are accepted. */
    static final String MAX_CONNECTIONS = "jdk.httpserver.maxConnections";

    static final Map<String, String> DEFAULTS = Map.of(MAX_REQUEST_SECONDS, "30", MAX_RESPONSE_SECONDS, "60",
            MAX_CONNECTIONS, "256");

    private HttpServerLimits() {
    }

    /** Sets each bound {@code properties} does not have already. */
    static void apply(Properties properties) {
        DEFAULTS.forEach(properties::putIfAbsent);
    }
}
