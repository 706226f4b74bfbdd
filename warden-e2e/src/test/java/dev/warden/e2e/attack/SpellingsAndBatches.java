package dev.warden.e2e.attack;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Issue 30, findings 3 and 4: a DELETEd portable session must stay deleted whatever spelling of its
 * id comes next; a JSON-RPC batch is answered in the versions that have batches and refused at once
 * in those that do not, never left hanging with its ids in use.
 */
final class SpellingsAndBatches {

    static final Duration GUARD = Duration.ofSeconds(30);
    /** What "at once" means for a batch's answer: server-everything's echo takes milliseconds. */
    static final Duration PROMPTLY = Duration.ofSeconds(10);

    private SpellingsAndBatches() {
    }

    static List<Attack> all() {
        return List.of(deletedSessionRespelled(), batchesByVersion());
    }

    /**
     * Finding 3: the sealed id's last base64url character has unused bits, and a lenient decoder
     * takes {@code =} padding; each other spelling opened the DELETEd session again (200).
     */
    static Attack deletedSessionRespelled() {
        return Attack.onGateway("deleted portable session respelled",
                "DELETE a portable session, then call with every other spelling of its id (unused bits, = padding)",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    String session = http.initialize("{}", GUARD);
                    List<String> spellings = otherSpellings(session);
                    tally.note(spellings.size() + " other spellings of the id");
                    HttpResponse<String> deleted = HttpClient.newHttpClient().send(HttpRequest.newBuilder(http.uri())
                            .timeout(GUARD).DELETE().header("Mcp-Session-Id", session)
                            .header("MCP-Protocol-Version", McpHttp.LATEST).build(), HttpResponse.BodyHandlers.ofString());
                    if (deleted.statusCode() != 200) {
                        tally.problem("the DELETE got HTTP " + deleted.statusCode());
                    }
                    List<String> every = new ArrayList<>(spellings);
                    every.add(session);
                    int id = 1;
                    for (String spelling : every) {
                        McpHttp.Reply reply = http.post(Optional.of(spelling),
                                McpHttp.call(id++, "everything__echo", "{\"message\":\"back\"}"), GUARD);
                        tally.counted(1, reply.status() == 404 ? 1 : 0);
                        if (reply.status() != 404) {
                            tally.problem((spelling.equals(session) ? "the deleted id" : "another spelling of the deleted id")
                                    + " got HTTP " + reply.status() + ", not 404");
                        }
                    }
                }).startedBy(scale -> Target.gateway(Target.standardConfig("sessions: { portable: { keyFile: "
                        + keyFile() + ", maxAge: 1h } }", List.of(), List.of()), Map.of()));
    }

    /**
     * Every other spelling of a sealed id that a lenient base64url decoder reads as the same bytes:
     * the last character with other unused bits, and each of those and the id itself with padding.
     */
    static List<String> otherSpellings(String id) {
        int body = id.lastIndexOf('.') + 1;
        byte[] bytes = Base64.getUrlDecoder().decode(id.substring(body));
        String padding = "=".repeat((4 - (id.length() - body) % 4) % 4);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        List<String> spellings = new ArrayList<>();
        for (char last : alphabet.toCharArray()) {
            String candidate = id.substring(0, id.length() - 1) + last;
            if (Arrays.equals(Base64.getUrlDecoder().decode(candidate.substring(body)), bytes)) {
                if (!candidate.equals(id)) {
                    spellings.add(candidate);
                }
                if (!padding.isEmpty()) {
                    spellings.add(candidate + padding);
                }
            }
        }
        return spellings;
    }

    private static Path keyFile() throws IOException {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        Path file = Files.createTempDirectory("warden-attack-keys").resolve("session-keys");
        Files.writeString(file, "k1 " + Base64.getUrlEncoder().withoutPadding().encodeToString(secret) + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    /**
     * Finding 4: a batch on a 2025-03-26 session got 200 and keep-alives for 40 s+, its ids stayed in
     * use; 2025-03-26 has batches (2025-06-18 removed them: there, 400 with -32600 at once).
     */
    static Attack batchesByVersion() {
        return Attack.onGateway("batches by version",
                "a batch of two echoes and a notification on a 2025-03-26 session, its ids reused; the batch on 2025-06-18",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    String batch = "[" + McpHttp.call(1, "everything__echo", "{\"message\":\"a\"}") + ","
                            + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"},"
                            + McpHttp.call(2, "everything__echo", "{\"message\":\"b\"}") + "]";
                    String march = initialize(http, "2025-03-26");
                    try {
                        McpHttp.Reply reply = post(http, march, "2025-03-26", batch);
                        tally.answeredOnce(reply, 1);
                        tally.answeredOnce(reply, 2);
                    } catch (IOException e) {
                        tally.unanswered("the 2025-03-26 batch", e);
                    }
                    for (int id = 1; id <= 2; id++) {
                        try {
                            McpHttp.Reply again = post(http, march, "2025-03-26",
                                    McpHttp.call(id, "everything__echo", "{\"message\":\"again\"}"));
                            tally.answeredOnce(again, id);
                        } catch (IOException e) {
                            tally.unanswered(id, e);
                        }
                    }
                    String june = initialize(http, "2025-06-18");
                    try {
                        McpHttp.Reply refused = post(http, june, "2025-06-18", batch);
                        boolean invalid = refused.status() == 400 && refused.messages().size() == 1
                                && refused.messages().get(0).at("/error/code").asInt() == -32600;
                        tally.counted(1, invalid ? 1 : 0);
                        if (!invalid) {
                            tally.problem("the 2025-06-18 batch got HTTP " + refused.status() + " " + refused.messages());
                        }
                    } catch (IOException e) {
                        tally.unanswered("the 2025-06-18 batch", e);
                    }
                });
    }

    private static String initialize(McpHttp http, String version) throws IOException, InterruptedException {
        McpHttp.Reply reply = http.post(Optional.empty(), """
                {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"%s",\
                "capabilities":{},"clientInfo":{"name":"attack-batches","version":"1"}}}""".formatted(version), GUARD);
        String session = reply.session().orElseThrow(() -> new IllegalStateException("initialize gave no session: " + reply));
        post(http, session, version, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return session;
    }

    /** A POST on a session of {@code version} (the header names it; McpHttp's own would say the latest). */
    private static McpHttp.Reply post(McpHttp http, String session, String version, String body)
            throws IOException, InterruptedException {
        return http.post(Optional.empty(), body.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                Map.of("Mcp-Session-Id", session, "MCP-Protocol-Version", version), PROMPTLY);
    }
}
