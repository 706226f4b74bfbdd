package dev.warden.testkit.otlp;

import com.google.protobuf.InvalidProtocolBufferException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP/HTTP endpoint for tests, as a collector would be: it accepts protobuf on {@code /v1/traces},
 * {@code /v1/metrics} and {@code /v1/logs} (logs are answered and dropped) on a loopback port of the
 * OS's choosing, and keeps what it decoded for assertions. Point an exporter at {@link #endpoint()}
 * ({@code OTEL_EXPORTER_OTLP_ENDPOINT}). Exports arrive when the exporter's batch is due: wait for
 * them with {@link #awaitSpans}, whose timeout is a hang guard, never a speed assertion.
 */
public final class OtlpReceiver implements AutoCloseable {

    private static final String PROTOBUF = "application/x-protobuf";

    private final HttpServer server;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final List<ReceivedSpan> spans = new ArrayList<>();
    private final List<ReceivedMetric> metrics = new ArrayList<>();
    private final List<Integer> spansPerExport = new ArrayList<>();

    private OtlpReceiver(HttpServer server) {
        this.server = server;
    }

    /** Starts a receiver on 127.0.0.1 and a free port. */
    public static OtlpReceiver start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        OtlpReceiver receiver = new OtlpReceiver(server);
        server.createContext("/v1/traces", exchange -> receiver.answer(exchange, Signal.TRACES));
        server.createContext("/v1/metrics", exchange -> receiver.answer(exchange, Signal.METRICS));
        server.createContext("/v1/logs", exchange -> receiver.answer(exchange, Signal.LOGS));
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        return receiver;
    }

    /** The base URL, as {@code OTEL_EXPORTER_OTLP_ENDPOINT} takes it: exporters add {@code /v1/traces}. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The spans received so far, in the order they arrived. */
    public List<ReceivedSpan> spans() {
        return locked(() -> List.copyOf(spans));
    }

    /** How many spans each trace export held, in the order they arrived: how the exporter batched them. */
    public List<Integer> spansPerExport() {
        return locked(() -> List.copyOf(spansPerExport));
    }

    /** The metrics received so far, one entry per metric per export. */
    public List<ReceivedMetric> metrics() {
        return locked(() -> List.copyOf(metrics));
    }

    private <T> T locked(Supplier<T> read) {
        lock.lock();
        try {
            return read.get();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the spans received satisfy {@code done}, and returns them; fails after {@code
     * bound} (a hang guard) with what did arrive.
     */
    public List<ReceivedSpan> awaitSpans(Predicate<List<ReceivedSpan>> done, Duration bound)
            throws InterruptedException {
        return await(() -> List.copyOf(spans), done, bound, "spans");
    }

    /** {@link #awaitSpans} for metrics. */
    public List<ReceivedMetric> awaitMetrics(Predicate<List<ReceivedMetric>> done, Duration bound)
            throws InterruptedException {
        return await(() -> List.copyOf(metrics), done, bound, "metrics");
    }

    private <T> List<T> await(Supplier<List<T>> held, Predicate<List<T>> done, Duration bound,
                              String what) throws InterruptedException {
        long left = bound.toNanos();
        lock.lock();
        try {
            List<T> now = held.get();
            while (!done.test(now)) {
                if (left <= 0) {
                    throw new AssertionError("the OTLP receiver did not get the expected " + what + " within "
                            + bound + "; it got " + now);
                }
                left = arrived.awaitNanos(left);
                now = held.get();
            }
            return now;
        } finally {
            lock.unlock();
        }
    }

    private enum Signal { TRACES, METRICS, LOGS }

    private void answer(HttpExchange exchange, Signal signal) throws IOException {
        try (exchange) {
            String type = exchange.getRequestHeaders().getFirst("Content-Type");
            if (!"POST".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            if (type == null || !type.startsWith(PROTOBUF)) {
                // OTLP/HTTP JSON is not decoded here: the exporters under test are told to send protobuf.
                exchange.sendResponseHeaders(415, -1);
                return;
            }
            byte[] body;
            try (InputStream in = body(exchange)) {
                body = in.readAllBytes();
            }
            byte[] response;
            try {
                response = switch (signal) {
                    case TRACES -> {
                        List<ReceivedSpan> received = OtlpDecoding.spans(ExportTraceServiceRequest.parseFrom(body));
                        locked(() -> spansPerExport.add(received.size()));
                        keep(received, List.of());
                        yield ExportTraceServiceResponse.getDefaultInstance().toByteArray();
                    }
                    case METRICS -> {
                        keep(List.of(), OtlpDecoding.metrics(ExportMetricsServiceRequest.parseFrom(body)));
                        yield ExportMetricsServiceResponse.getDefaultInstance().toByteArray();
                    }
                    case LOGS -> ExportLogsServiceResponse.getDefaultInstance().toByteArray();
                };
            } catch (InvalidProtocolBufferException e) {
                exchange.sendResponseHeaders(400, -1);
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", PROTOBUF);
            exchange.sendResponseHeaders(200, response.length == 0 ? -1 : response.length);
            if (response.length > 0) {
                exchange.getResponseBody().write(response);
            }
        }
    }

    private static InputStream body(HttpExchange exchange) throws IOException {
        String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
        return "gzip".equalsIgnoreCase(encoding) ? new GZIPInputStream(exchange.getRequestBody())
                : exchange.getRequestBody();
    }

    private void keep(List<ReceivedSpan> newSpans, List<ReceivedMetric> newMetrics) {
        lock.lock();
        try {
            spans.addAll(newSpans);
            metrics.addAll(newMetrics);
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ExecutorService executor = (ExecutorService) server.getExecutor();
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
