package dev.warden.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.telemetry.McpTelemetry;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * A trace context a caller forwards in {@code _meta} is the caller's, not this client's: with its
 * telemetry off ({@link McpTelemetry#noop()}) the HTTP request carries no W3C header from it.
 */
class ForwardedTraceContextTest {

    @Test
    void withTelemetryOffAForwardedContextBecomesNoHeader() throws Exception {
        CompletableFuture<String> seen = new CompletableFuture<>();
        com.sun.net.httpserver.HttpServer endpoint = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        endpoint.createContext("/mcp", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes());
            if (body.contains("\"initialize\"")) {
                byte[] out = ("{\"jsonrpc\":\"2.0\",\"id\":" + body.replaceAll(".*\"id\":(\\d+).*", "$1")
                        + ",\"result\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
                        + "\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}}").getBytes();
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, out.length);
                exchange.getResponseBody().write(out);
            } else if (body.contains("tools/call")) {
                seen.complete(String.valueOf(exchange.getRequestHeaders().getFirst("traceparent")));
                exchange.sendResponseHeaders(500, -1);
            } else {
                exchange.sendResponseHeaders(202, -1);
            }
            exchange.close();
        });
        endpoint.start();
        try {
            java.net.URI uri = java.net.URI.create("http://127.0.0.1:" + endpoint.getAddress().getPort() + "/mcp");
            try (McpClient client = McpClient.builder("agent", "1.0.0").telemetry(McpTelemetry.noop())
                    .protocolVersion(dev.warden.core.mcp.ProtocolVersion.V2025_11_25)
                    .reconnect(ReconnectPolicy.none()).connect(McpClient.http(uri))) {
                ObjectNode params = Json.object().put("name", "refund");
                params.putObject("_meta").put("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
                org.assertj.core.api.Assertions.catchThrowable(() -> client.request("tools/call", params));
            }
        } finally {
            endpoint.stop(0);
        }
        assertThat(seen.get(20, TimeUnit.SECONDS)).as("header written with telemetry off").isEqualTo("null");
    }
}
