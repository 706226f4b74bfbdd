package dev.warden.audit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.core.sanitize.detection.Category;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * A leak is what the sanitizer would replace, not whatever its detectors notice: the answers of
 * warden-e2e's leaky-server.mjs show their planted leaks, and the same answers as {@code warden wrap}
 * relays them (captured verbatim in {@code leaks/leaky-server-through-wrap.jsonl}) show none.
 */
class LeakScanTest {

    private final LeakScan scan = new LeakScan(Sanitizer.ofDefaults());

    @Test
    void each_planted_leak_of_the_leaky_server_is_found() {
        Map<String, Set<Category>> found = leaksByAnswer("leaky-server.jsonl");

        assertThat(found.get("node_error")).contains(Category.STACK_TRACE, Category.SECRET, Category.TOPOLOGY);
        assertThat(found.get("python_error")).contains(Category.STACK_TRACE, Category.DATABASE);
        assertThat(found.get("java_error")).contains(Category.STACK_TRACE, Category.SECRET);
        assertThat(found.get("go_error")).contains(Category.STACK_TRACE, Category.SECRET, Category.TOPOLOGY);
        assertThat(found.get("double_encoded")).contains(Category.FILE_PATH);
        assertThat(found.get("injection")).contains(Category.INJECTION);
        assertThat(found.get("notifications/message")).contains(Category.SECRET, Category.TOPOLOGY);
        assertThat(found.get("success_with_secret")).contains(Category.SECRET);
    }

    @Test
    void the_same_answers_as_warden_wrap_sanitized_them_hold_no_leak() {
        Map<String, Set<Category>> found = leaksByAnswer("leaky-server-through-wrap.jsonl");

        assertThat(found).as("answers read").hasSize(9);
        assertThat(found).allSatisfy((answer, categories) -> assertThat(categories).as(answer).isEmpty());
    }

    @Test
    void a_url_whose_password_warden_replaced_shows_no_credential() {
        ObjectNode answer = isError("postgres://admin:[redacted:url-password]@[redacted:internal-host]/users");

        assertThat(scan.answer(answer, CallerInput.none())).isEmpty();
    }

    @Test
    void a_database_message_kept_with_its_names_replaced_is_no_leak() {
        ObjectNode answer = isError("duplicate key value violates unique constraint \"[redacted:constraint-name]\"\n"
                + "DETAIL:  Key ([redacted:column-name])=([redacted:value]) already exists.");

        assertThat(scan.answer(answer, CallerInput.none())).isEmpty();
    }

    @Test
    void a_database_message_with_the_servers_names_shows_them_but_not_its_frame() {
        ObjectNode answer = isError("duplicate key value violates unique constraint \"users_email_key\"\n"
                + "DETAIL:  Key (email)=(grace@example.com) already exists.");

        List<LeakScan.Leak> leaks = scan.answer(answer, CallerInput.none());

        assertThat(leaks).extracting(LeakScan.Leak::kind)
                .contains("constraint-name", "column-name", "value")
                .doesNotContain("database-message");
    }

    @Test
    void stderr_text_warden_sanitized_already_shows_nothing() {
        String logged = "upstream failed: [redacted:stack-trace]\nconnecting to [redacted:internal-ip] with "
                + "postgres://admin:[redacted:url-password]@[redacted:internal-host]/users";

        assertThat(scan.text(logged, "stderr", CallerInput.none())).isEmpty();
    }

    private static ObjectNode isError(String text) {
        ObjectNode answer = Json.object();
        answer.put("jsonrpc", "2.0");
        answer.put("id", 1);
        ObjectNode result = answer.putObject("result");
        result.putArray("content").addObject().put("type", "text").put("text", text);
        result.put("isError", true);
        return answer;
    }

    /** Each answer (by id) or notification (by method) of a captured stream, and the categories of its leaks. */
    private Map<String, Set<Category>> leaksByAnswer(String resource) {
        Map<String, Set<Category>> found = new java.util.LinkedHashMap<>();
        for (String line : lines(resource)) {
            ObjectNode message = (ObjectNode) Json.mapper().readTree(line);
            boolean notification = !message.has("id");
            List<LeakScan.Leak> leaks = notification ? scan.notification(message, CallerInput.none())
                    : scan.answer(message, CallerInput.none());
            String key = notification ? message.get("method").asString() : message.get("id").asString();
            found.put(key, leaks.stream().map(LeakScan.Leak::category).collect(Collectors.toSet()));
        }
        return found;
    }

    private static List<String> lines(String resource) {
        try (InputStream in = LeakScanTest.class.getResourceAsStream("/leaks/" + resource)) {
            List<String> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    out.add(line);
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
