package dev.warden.gateway.internal.failure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.incident.Incident;
import dev.warden.core.json.Json;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * From an upstream's {@code data}, what a known shape extracts (violations, a retry hint) reaches the
 * model; the rest stays in the incident. A PostgreSQL DETAIL naming another customer's row never
 * reaches the client, whether it comes in {@code data}, in the text, or as JSON encoded twice.
 */
class UpstreamDataReachesTheModelTest {

    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private final ErrorPipeline pipeline = new ErrorPipeline("crm", Sanitizer.ofDefaults(), Policy.REDACT, true,
            incidents::add, Clock.systemUTC());
    private final Optional<JsonNode> call = Optional.of(Json.mapper().readTree(
            "{\"name\":\"create_user\",\"arguments\":{\"email\":\"ada@example.com\"}}"));

    /** node-postgres 8's DatabaseError for a unique violation, as a server put it in error.data. */
    private static final String PG_ERROR = "{\"length\":220,\"name\":\"error\",\"severity\":\"ERROR\",\"code\":\"23505\","
            + "\"detail\":\"Key (email)=(bob@other.example) already exists.\",\"schema\":\"public\","
            + "\"table\":\"users\",\"constraint\":\"users_email_key\",\"file\":\"nbtinsert.c\",\"line\":\"666\","
            + "\"routine\":\"_bt_check_unique\"}";

    private String seenByTheClient(ErrorPipeline.Outcome outcome) {
        return pipeline.toolError(outcome, true).toString();
    }

    @Test
    void aDetailInDataNeverReachesTheClient() {
        ErrorPipeline.Outcome outcome = pipeline.failure("tools/call", Optional.of("create_user"),
                new ErrorPipeline.Said("duplicate key value violates unique constraint \"users_email_key\"",
                        Optional.of(Json.mapper().readTree(PG_ERROR))), ErrorCode.UPSTREAM_ERROR, call);
        assertThat(seenByTheClient(outcome)).doesNotContain("bob@other.example").doesNotContain("users_email_key");
        assertThat(incidents).singleElement().satisfies(i -> assertThat(i.original()).hasValueSatisfying(
                original -> assertThat(original).contains("bob@other.example")));
    }

    @Test
    void aDetailInTheTextNeverReachesTheClient() {
        ErrorPipeline.Outcome outcome = pipeline.failure("tools/call", Optional.of("create_user"),
                ErrorPipeline.Said.text("ERROR:  duplicate key value violates unique constraint \"users_email_key\"\n"
                        + "DETAIL:  Key (email)=(bob@other.example) already exists."), ErrorCode.UPSTREAM_ERROR, call);
        assertThat(seenByTheClient(outcome)).doesNotContain("bob@other.example");
    }

    @Test
    void aDetailInJsonEncodedTwiceNeverReachesTheClient() {
        String twice = Json.mapper().writeValueAsString(PG_ERROR);
        ErrorPipeline.Outcome outcome = pipeline.failure("tools/call", Optional.of("create_user"),
                ErrorPipeline.Said.text(twice), ErrorCode.UPSTREAM_ERROR, call);
        assertThat(seenByTheClient(outcome)).doesNotContain("bob@other.example");
        ErrorPipeline.Outcome inData = pipeline.failure("tools/call", Optional.of("create_user"),
                new ErrorPipeline.Said("Internal error", Optional.of(Json.mapper().readTree(
                        "{\"error\":" + twice + "}"))), ErrorCode.UPSTREAM_ERROR, call);
        assertThat(seenByTheClient(inData)).doesNotContain("bob@other.example");
    }

    @Test
    void violationsInDataReachTheModelAndTheRestStaysInTheIncident() {
        // zod 3's ZodError.issues, as a server put them in error.data next to its own diagnostics
        ErrorPipeline.Outcome outcome = pipeline.failure("tools/call", Optional.of("create_user"),
                new ErrorPipeline.Said("Invalid arguments", Optional.of(Json.mapper().readTree("""
                        {"issues":[{"code":"invalid_string","validation":"email","path":["email"],
                                    "message":"Invalid email"}],
                         "debug":{"handler":"createUser","worker":"w-17"}}"""))),
                ErrorCode.UPSTREAM_ERROR, call);
        assertThat(outcome.violations()).singleElement().satisfies(v -> {
            assertThat(v.pointer()).isEqualTo("/email");
            assertThat(v.message()).isEqualTo("Invalid email");
        });
        assertThat(seenByTheClient(outcome)).contains("Invalid email").doesNotContain("createUser")
                .doesNotContain("w-17");
    }

    @Test
    void aRetryHintInDataReachesTheModel() {
        ErrorPipeline.Outcome outcome = pipeline.failure("tools/call", Optional.of("create_user"),
                new ErrorPipeline.Said("Too many requests", Optional.of(Json.mapper().readTree(
                        "{\"error\":\"rate limit exceeded\",\"retryAfter\":30}"))), ErrorCode.UPSTREAM_ERROR, call);
        assertThat(outcome.retryAfter()).contains(Duration.ofSeconds(30));
        assertThat(seenByTheClient(outcome)).contains("\"retryAfterMs\":30000");
    }
}
