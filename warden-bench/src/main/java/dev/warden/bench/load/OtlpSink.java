package dev.warden.bench.load;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The OTLP endpoint of {@code scripts/bench-gateway}'s traced run: it takes OTLP/HTTP exports on
 * {@code /v1/traces}, {@code /v1/metrics} and {@code /v1/logs}, reads them whole and answers 200
 * with an empty response (what a collector that accepted everything answers), decoding nothing,
 * so that the measured cost is the exporting gateway's rather than a backend's. {@code GET /stats}
 * tells how many exports and bytes came, so the run can show that the gateway did export.
 *
 * <p>Usage: {@code OtlpSink}; prints {@code otlp sink: http://127.0.0.1:PORT} and serves until killed.
 */
public final class OtlpSink {

    private final AtomicLong traces = new AtomicLong();
    private final AtomicLong metrics = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    public static void main(String[] args) throws IOException {
        OtlpSink sink = new OtlpSink();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/traces", exchange -> sink.accept(exchange, sink.traces));
        server.createContext("/v1/metrics", exchange -> sink.accept(exchange, sink.metrics));
        server.createContext("/v1/logs", exchange -> sink.accept(exchange, new AtomicLong()));
        server.createContext("/stats", sink::stats);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        System.out.println("otlp sink: http://127.0.0.1:" + server.getAddress().getPort());
        System.out.flush();
    }

    private void accept(HttpExchange exchange, AtomicLong exports) throws IOException {
        try (exchange; InputStream body = exchange.getRequestBody()) {
            // Read through a small buffer, not into an array of the body's size (copied as it grows):
            // the sink shares the gateway's cores, and what it spends is charged to tracing.
            byte[] buffer = new byte[64 * 1024];
            long read = 0;
            for (int n = body.read(buffer); n >= 0; n = body.read(buffer)) {
                read += n;
            }
            bytes.addAndGet(read);
            exports.incrementAndGet();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1);
        }
    }

    private void stats(HttpExchange exchange) throws IOException {
        byte[] text = ("trace exports " + traces.get() + ", metric exports " + metrics.get() + ", "
                + bytes.get() + " bytes\n").getBytes(StandardCharsets.UTF_8);
        try (exchange) {
            exchange.sendResponseHeaders(200, text.length);
            exchange.getResponseBody().write(text);
        }
    }
}
