package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * Streamable HTTP by hand, with credentials, for the gateway's authentication tests: every request
 * is one exchange whose status, headers and body the test sees exactly as a client would. Also
 * what the gateway leaves behind for its operator: the audit records and {@code warden incidents show}.
 */
final class AuthedHttp {

    /** A hang guard, not a speed check. */
    static final Duration PATIENCE = Duration.ofSeconds(30);
    static final String VERSION = "2025-11-25";

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private AuthedHttp() {
    }

    static Map<String, String> bearer(String token) {
        return Map.of("Authorization", "Bearer " + token);
    }

    static Map<String, String> apiKey(String key) {
        return Map.of("X-API-Key", key);
    }

    static String initializeBody(String clientName) {
        return """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"%s",\
                "capabilities":{},"clientInfo":{"name":"%s","version":"1"}}}""".formatted(VERSION, clientName);
    }

    static String callBody(int id, String tool, String argsJson) {
        return """
                {"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":%s}}"""
                .formatted(id, tool, argsJson);
    }

    static HttpResponse<String> post(String url, Map<String, String> headers, Optional<String> session, String body)
            throws Exception {
        HttpRequest.Builder builder = request(url, headers, session).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").POST(HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A GET's status: an event stream that opens is closed at once, its headers seen. */
    static HttpResponse<InputStream> get(String url, Map<String, String> headers, Optional<String> session,
                                         Map<String, String> more) throws Exception {
        HttpRequest.Builder builder = request(url, headers, session).header("Accept", "text/event-stream").GET();
        more.forEach(builder::header);
        HttpResponse<InputStream> response = HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofInputStream());
        response.body().close();
        return response;
    }

    static HttpResponse<String> delete(String url, Map<String, String> headers, Optional<String> session)
            throws Exception {
        return HTTP.send(request(url, headers, session).DELETE().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A plain GET of any URL (metadata, metrics). */
    static HttpResponse<String> fetch(String url, Map<String, String> headers) throws Exception {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).timeout(PATIENCE).GET();
        headers.forEach(builder::header);
        return HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(String url, Map<String, String> headers, Optional<String> session) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).timeout(PATIENCE);
        headers.forEach(builder::header);
        session.ifPresent(s -> builder.header("Mcp-Session-Id", s).header("MCP-Protocol-Version", VERSION));
        return builder;
    }

    /**
     * A session opened with {@code headers}' credentials, initialized, its tools listed (as clients
     * do first: the gateway's audit names only tools it has listed, else "(unknown)"): its id.
     */
    static String initialize(String url, Map<String, String> headers, String clientName) throws Exception {
        HttpResponse<String> init = post(url, headers, Optional.empty(), initializeBody(clientName));
        assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        HttpResponse<String> initialized = post(url, headers, Optional.of(session),
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        assertThat(initialized.statusCode()).as(initialized.body()).isEqualTo(202);
        HttpResponse<String> tools = post(url, headers, Optional.of(session),
                "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"tools/list\"}");
        assertThat(tools.statusCode()).as(tools.body()).isEqualTo(200);
        assertThat(answer(tools.body(), 0).has("result")).as(tools.body()).isTrue();
        return session;
    }

    /** A tools/call on {@code session}: the JSON-RPC message answering it (from a JSON body or an event stream). */
    static JsonNode call(String url, Map<String, String> headers, String session, int id, String tool, String argsJson)
            throws Exception {
        HttpResponse<String> response = post(url, headers, Optional.of(session), callBody(id, tool, argsJson));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return answer(response.body(), id);
    }

    /** The message with {@code id} in a JSON body or among an event stream's data lines. */
    static JsonNode answer(String body, int id) {
        List<String> candidates = body.stripLeading().startsWith("{") ? List.of(body)
                : body.lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5).strip())
                        .filter(l -> !l.isEmpty()).toList();
        for (String candidate : candidates) {
            JsonNode node = Json.mapper().readTree(candidate);
            if (node.path("id").isNumber() && node.get("id").asInt() == id) {
                return node;
            }
        }
        throw new AssertionError("no answer to " + id + " in " + body);
    }

    /** Every audit record the gateway wrote under {@code dataDir}. */
    static List<JsonNode> audit(Path dataDir) throws Exception {
        Path dir = dataDir.resolve("audit");
        List<JsonNode> records = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return records;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList()) {
                for (String line : Files.readAllLines(file)) {
                    records.add(Json.mapper().readTree(line));
                }
            }
        }
        return records;
    }

    /** The first audit record that {@code matches}, waiting for it to be written (a bounded poll). */
    static JsonNode auditRecord(Path dataDir, Predicate<JsonNode> matches) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            Optional<JsonNode> found = audit(dataDir).stream().filter(matches).findFirst();
            if (found.isPresent()) {
                return found.get();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no such audit record in " + audit(dataDir));
            }
            Thread.sleep(50);
        }
    }

    /** What {@code warden incidents show REF} prints for the operator. */
    static String incident(Path dataDir, String ref) throws Exception {
        Processes.Result shown = Processes.run(List.of(Processes.LAUNCHER.toString(), "incidents", "show", ref,
                "--data-dir", dataDir.toString()));
        assertThat(shown.exitCode()).as(shown.stderr()).isZero();
        return shown.stdout();
    }
}
