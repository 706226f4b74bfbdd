package dev.warden.e2e.attack;

import java.time.Duration;
import java.util.List;

/** {@code warden wrap} in front of the hostile server, attacked through its one client. */
final class WrapAttacks {

    static final Duration GUARD = Duration.ofSeconds(60);

    private WrapAttacks() {
    }

    static List<Attack> all() {
        return List.of(serverNeverReads(), floodToSlowClient(), garbageAnswers());
    }

    /** Finding 4: calls to a server that stopped reading blocked before their timeout was armed. */
    static Attack serverNeverReads() {
        return Attack.onWrap("wrap: server never reads stdin", "the server stops reading; 40 calls of 64 KiB follow (timeout 3s)",
                List.of("--timeout", "3s"), (target, scale, tally) -> {
                    WrapPeer peer = target.peer.orElseThrow();
                    peer.send(McpHttp.call(1, "stop-reading", "{}"));
                    peer.awaitAnswers(1, 1, GUARD);
                    String payload = "{\"message\":\"" + "w".repeat(64 * 1024) + "\"}";
                    Thread writer = Thread.ofVirtual().start(() -> {
                        try {
                            for (int i = 0; i < 40; i++) {
                                peer.send(McpHttp.call(100 + i, "echo", payload));
                            }
                            peer.send("{\"jsonrpc\":\"2.0\",\"id\":200,\"method\":\"ping\"}");
                        } catch (Exception e) {
                            tally.problem("wrap stopped reading its client: " + e);
                        }
                    });
                    // Its timeout is 3 s; the guard leaves room for a loaded machine.
                    peer.awaitAnswers(100, 139, GUARD);
                    peer.awaitAnswers(200, 200, GUARD);
                    writer.join(1_000);
                    peer.count(1, 1, tally);
                    peer.count(100, 139, tally);
                    peer.count(200, 200, tally);
                });
    }

    /** Finding 5: log notifications to a client that does not read filled an unbounded queue (OutOfMemoryError). */
    static Attack floodToSlowClient() {
        return Attack.onWrap("wrap: log flood to a client not reading",
                "the server floods 1 KiB log notifications while the client reads nothing for a while",
                List.of(), (target, scale, tally) -> {
                    WrapPeer peer = target.peer.orElseThrow();
                    int count = scale.notifications() * 4;
                    peer.pauseReading();
                    peer.send(McpHttp.call(1, "flood-log", "{\"count\":" + count + ",\"size\":1024}"));
                    Thread.sleep(scale.hold().toMillis());
                    peer.resumeReading();
                    peer.awaitAnswers(1, 1, Duration.ofMinutes(3));
                    peer.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
                    peer.awaitAnswers(2, 2, GUARD);
                    peer.count(1, 2, tally);
                    tally.note(peer.notifications.get() + " of " + count + " notifications reached the client");
                });
    }

    static Attack garbageAnswers() {
        return Attack.onWrap("wrap: non-UTF-8 and 50 MB answers", "an answer with bytes that are not UTF-8, then a 50 MiB answer line",
                List.of("--timeout", "5s"), (target, scale, tally) -> {
                    WrapPeer peer = target.peer.orElseThrow();
                    long start = System.nanoTime();
                    peer.send(McpHttp.call(1, "non-utf8", "{}"));
                    peer.awaitAnswers(1, 1, GUARD);
                    tally.note("non-UTF-8 answered after %d ms".formatted((System.nanoTime() - start) / 1_000_000));
                    peer.send(McpHttp.call(2, "big-line", "{\"mb\":50}"));
                    peer.awaitAnswers(2, 2, GUARD);
                    peer.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
                    peer.awaitAnswers(3, 3, GUARD);
                    peer.count(1, 3, tally);
                });
    }
}
