package dev.warden.e2e.attack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;

/**
 * {@code warden wrap}'s one client, on its stdio: counts the answers by id and the notifications,
 * and can stop reading (a client that does not keep up) and start again.
 */
final class WrapPeer {

    private final OutputStream in;
    private final Map<Long, AtomicLong> answers = new ConcurrentHashMap<>();
    /** The last answer to each id (its JSON), for attacks that judge what came back. */
    private final Map<Long, JsonNode> bodies = new ConcurrentHashMap<>();
    final AtomicLong notifications = new AtomicLong();
    private final AtomicBoolean reading = new AtomicBoolean(true);

    WrapPeer(Process process) {
        in = process.getOutputStream();
        Thread.ofPlatform().daemon().name("wrap-client-reader").start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8), 1 << 16)) {
                while (true) {
                    while (!reading.get()) {
                        Thread.sleep(20);
                    }
                    String line = r.readLine();
                    if (line == null) {
                        return;
                    }
                    if (line.length() > 64 && line.startsWith("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/")) {
                        notifications.incrementAndGet(); // a flood is counted without parsing each line
                        continue;
                    }
                    JsonNode node = McpHttp.JSON.readTree(line);
                    if (!node.has("method") && node.path("id").isNumber()) {
                        answers.computeIfAbsent(node.get("id").asLong(), k -> new AtomicLong()).incrementAndGet();
                        bodies.put(node.get("id").asLong(), node);
                    } else if (node.has("method")) {
                        notifications.incrementAndGet();
                    }
                }
            } catch (IOException | InterruptedException | RuntimeException e) {
                // wrap ended
            }
        });
    }

    void send(String json) throws IOException {
        synchronized (in) {
            in.write((json + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }
    }

    /** The answer to {@code id}, if one came. */
    java.util.Optional<JsonNode> answer(long id) {
        return java.util.Optional.ofNullable(bodies.get(id));
    }

    void pauseReading() {
        reading.set(false);
    }

    void resumeReading() {
        reading.set(true);
    }

    void initialize() throws IOException, InterruptedException {
        send(McpHttp.initializeRequest(0, "{}").replace(McpHttp.LATEST, "2025-06-18"));
        awaitAnswers(0, 0, Duration.ofSeconds(60));
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    /** Waits (a hang guard) until each id in [from, to] has an answer; then counts them into the tally. */
    void awaitAnswers(long from, long to, Duration guard) throws InterruptedException {
        long deadline = System.nanoTime() + guard.toNanos();
        while (System.nanoTime() < deadline && !allAnswered(from, to)) {
            Thread.sleep(20);
        }
    }

    private boolean allAnswered(long from, long to) {
        for (long id = from; id <= to; id++) {
            if (!answers.containsKey(id)) {
                return false;
            }
        }
        return true;
    }

    void count(long from, long to, Tally tally) {
        for (long id = from; id <= to; id++) {
            tally.expected.incrementAndGet();
            long n = answers.getOrDefault(id, new AtomicLong()).get();
            if (n == 1) {
                tally.received.incrementAndGet();
            } else {
                tally.problem("request " + id + " got " + n + " answers");
            }
        }
    }
}
