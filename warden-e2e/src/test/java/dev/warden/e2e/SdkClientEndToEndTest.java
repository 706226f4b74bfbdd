package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.Ref;
import dev.warden.core.json.Json;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * The official TypeScript SDK client drives {@code ./warden demo}; each test checks one thing
 * about what that client received. Run over stdio ({@code StdioClientTransport}, this class) and
 * over Streamable HTTP ({@link SdkClientOverHttpEndToEndTest}): the same results either way.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SdkClientEndToEndTest {

    JsonNode received;
    java.nio.file.Path dataDir;

    @BeforeAll
    void runClient() throws Exception {
        dataDir = java.nio.file.Files.createTempDirectory("warden-e2e-data");
        received = Json.mapper().readTree(runScenarios(dataDir));
    }

    /** Runs sdk-client.mjs against the demo; returns what it printed. */
    String runScenarios(java.nio.file.Path dataDir) throws Exception {
        Processes.Result result = Processes.run(Processes.node("sdk-client.mjs", Processes.LAUNCHER.toString(),
                "demo", "--data-dir", dataDir.toString()));
        assertThat(result.exitCode()).as("client stderr: %s", result.stderr()).isZero();
        return result.stdout();
    }

    /** Whether the client saw the server's stderr (stdio only). */
    boolean seesServerStderr() {
        return true;
    }

    private JsonNode value(String scenario) {
        JsonNode node = received.get(scenario);
        assertThat(node.get("ok").asBoolean()).as("%s succeeded at the protocol level: %s", scenario, node).isTrue();
        return node.get("value");
    }

    private JsonNode errorObject(String scenario) throws Exception {
        JsonNode result = value(scenario);
        assertThat(result.get("isError").asBoolean()).as(scenario).isTrue();
        JsonNode text = Json.mapper().readTree(result.get("content").get(0).get("text").stringValue());
        return text.get("error");
    }

    @Test
    void listsEveryDemoTool() {
        List<String> names = value("listTools").get("tools").valueStream().map(t -> t.get("name").stringValue())
                .toList();
        assertThat(names).containsExactly("create_user", "fetch_document", "search_catalog", "login",
                "generate_report", "long_task");
    }

    @Test
    void successfulCallReturnsTheDocument() {
        JsonNode result = value("success");
        assertThat(result.get("isError").asBoolean()).isFalse();
        assertThat(result.get("content").get(0).get("text").stringValue()).startsWith("Quarterly report");
    }

    @Test
    void structuredResultPassesTheClientsOutputSchemaValidation() {
        JsonNode result = value("createUser");
        assertThat(result.get("structuredContent").get("email").stringValue()).isEqualTo("grace@example.com");
    }

    @Test
    void invalidArgumentsAreAValidationErrorWithOneLinePerViolation() throws Exception {
        JsonNode error = errorObject("validation");
        assertThat(error.get("code").stringValue()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("retryable").asBoolean()).isFalse();
        assertThat(error.get("message").stringValue().split("\n")).contains(
                "/name: must be at least 1 character long",
                "/email: must be an email address",
                "/age: must be greater than or equal to 13",
                "/address/city: is required");
        assertThat(Ref.isWellFormed(error.get("ref").stringValue())).isTrue();
    }

    @Test
    void validationErrorsEchoNoneOfTheCallersValues() {
        Leaks.assertNothingLeaks(received.get("validation").toString());
    }

    @Test
    void toolWithOutputSchemaGetsItsErrorInTextOnlySoTheClientDoesNotReject() {
        assertThat(value("validation").has("structuredContent")).isFalse();
        assertThat(value("conflict").has("structuredContent")).isFalse();
    }

    @Test
    void toolWithoutOutputSchemaGetsTheErrorAsStructuredContentToo() throws Exception {
        JsonNode result = value("notFound");
        assertThat(result.get("structuredContent").get("error")).isEqualTo(errorObject("notFound"));
    }

    @Test
    void missingDocumentIsNotFound() throws Exception {
        assertThat(errorObject("notFound").get("code").stringValue()).isEqualTo("NOT_FOUND");
    }

    @Test
    void confidentialDocumentIsPermissionDenied() throws Exception {
        JsonNode error = errorObject("permissionDenied");
        assertThat(error.get("code").stringValue()).isEqualTo("PERMISSION_DENIED");
        assertThat(error.get("message").stringValue()).isEqualTo("You do not have access to this document.");
    }

    @Test
    void duplicateEmailIsAConflictWithoutTableConstraintOrSql() throws Exception {
        JsonNode error = errorObject("conflict");
        assertThat(error.get("code").stringValue()).isEqualTo("CONFLICT");
        assertThat(error.get("message").stringValue()).isEqualTo("A record with the same unique value already exists.");
        Leaks.assertNothingLeaks(received.get("conflict").toString());
    }

    @Test
    void thirdSearchInAMinuteIsRateLimitedWithRetryAfter() throws Exception {
        assertThat(value("rateLimited1").get("isError").asBoolean()).isFalse();
        assertThat(value("rateLimited2").get("isError").asBoolean()).isFalse();
        JsonNode error = errorObject("rateLimited3");
        assertThat(error.get("code").stringValue()).isEqualTo("RATE_LIMITED");
        assertThat(error.get("retryable").asBoolean()).isTrue();
        assertThat(error.get("retryAfterMs").asLong()).isBetween(1L, 60_000L);
    }

    @Test
    void unexpectedExceptionShowsOnlyAGenericMessageAndARef() throws Exception {
        JsonNode error = errorObject("internal");
        assertThat(error.get("code").stringValue()).isEqualTo("INTERNAL_ERROR");
        assertThat(error.get("message").stringValue()).isEqualTo("An internal error occurred.");
        assertThat(Ref.isWellFormed(error.get("ref").stringValue())).isTrue();
        Leaks.assertNothingLeaks(received.get("internal").toString());
        if (seesServerStderr()) {
            assertThat(received.get("stderrHasIncidents").asBoolean()).isTrue();
        }
    }

    @Test
    void unknownToolIsInvalidParamsWithoutEchoingTheName() {
        JsonNode outcome = received.get("unknownTool");
        assertThat(outcome.get("ok").asBoolean()).isFalse();
        assertThat(outcome.get("error").get("code").asInt()).isEqualTo(-32602);
        assertThat(outcome.get("error").get("data").get("code").stringValue()).isEqualTo("NOT_FOUND");
        Leaks.assertNothingLeaks(outcome.toString());
    }

    @Test
    void unknownAccountAndWrongPasswordLookTheSame() throws Exception {
        JsonNode unknown = errorObject("loginUnknownUser");
        JsonNode wrong = errorObject("loginWrongPassword");
        assertThat(unknown.get("message")).isEqualTo(wrong.get("message"));
        assertThat(unknown.get("code")).isEqualTo(wrong.get("code"));
        assertThat(value("loginOk").get("isError").asBoolean()).isFalse();
    }

    @Test
    void progressArrivesInOrderBeforeTheResult() {
        assertThat(value("progress").get("content").get(0).get("text").stringValue()).isEqualTo("Finished 3 steps.");
        assertThat(received.get("progressNotifications").valueStream().map(p -> p.get("progress").asInt()))
                .containsExactly(1, 2, 3);
    }

    @Test
    void cancelledCallEndsOnTheClientAndTheServerKeepsServing() {
        assertThat(received.get("cancelled").get("ok").asBoolean()).isFalse();
        assertThat(value("pingAfterCancel")).isNotNull();
        assertThat(value("successAfterCancel").get("isError").asBoolean()).isFalse();
    }

    @Test
    void everyFailureCarriesAWellFormedRef() throws Exception {
        for (String scenario : List.of("validation", "notFound", "permissionDenied", "conflict", "rateLimited3",
                "internal", "loginUnknownUser")) {
            assertThat(Ref.isWellFormed(errorObject(scenario).get("ref").stringValue())).as(scenario).isTrue();
        }
    }

    @Test
    void theOperatorFindsTheOriginalExceptionByTheRefTheClientGot() throws Exception {
        String ref = errorObject("internal").get("ref").stringValue();
        Processes.Result shown = Processes.run(java.util.List.of(Processes.LAUNCHER.toString(), "incidents", "show", ref,
                "--data-dir", dataDir.toString()));
        assertThat(shown.exitCode()).as(shown.stderr()).isZero();
        assertThat(shown.stdout()).contains(ref).contains("INTERNAL_ERROR").contains("generate_report")
                .contains("report writer crashed").contains("/var/lib/warden/reports/2026-Q3.csv")
                .contains("DemoTools");
    }

    @Test
    void theConflictsIncidentKeepsTheDriverMessageTheClientNeverSaw() throws Exception {
        String ref = errorObject("conflict").get("ref").stringValue();
        Processes.Result shown = Processes.run(java.util.List.of(Processes.LAUNCHER.toString(), "incidents", "show", ref,
                "--data-dir", dataDir.toString()));
        assertThat(shown.exitCode()).as(shown.stderr()).isZero();
        assertThat(shown.stdout()).contains("UQ_USERS_EMAIL").contains("INSERT INTO users");
    }

    @Test
    void incidentsListFiltersByCode() throws Exception {
        String ref = errorObject("internal").get("ref").stringValue();
        Processes.Result listed = Processes.run(java.util.List.of(Processes.LAUNCHER.toString(), "incidents", "list",
                "--since", "1h", "--code", "INTERNAL_ERROR", "--data-dir", dataDir.toString()));
        assertThat(listed.exitCode()).as(listed.stderr()).isZero();
        assertThat(listed.stdout()).contains(ref).doesNotContain("CONFLICT");
    }
}
