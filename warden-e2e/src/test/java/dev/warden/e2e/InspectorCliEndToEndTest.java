package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.Ref;
import dev.warden.core.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The MCP Inspector in CLI mode ({@code mcp-inspector --cli}) drives {@code ./warden demo}. */
class InspectorCliEndToEndTest {

    private static JsonNode inspect(String... args) throws Exception {
        Processes.Result result = Processes.run(Processes.inspector(args));
        assertThat(result.exitCode()).as("inspector stderr: %s", result.stderr()).isZero();
        return Json.mapper().readTree(result.stdout());
    }

    private static JsonNode errorOf(JsonNode result) throws Exception {
        assertThat(result.get("isError").asBoolean()).isTrue();
        return Json.mapper().readTree(result.get("content").get(0).get("text").stringValue()).get("error");
    }

    @Test
    void listsTheDemoTools() throws Exception {
        JsonNode result = inspect("--method", "tools/list");
        assertThat(result.get("tools").valueStream().map(t -> t.get("name").stringValue()))
                .contains("create_user", "fetch_document", "generate_report");
    }

    @Test
    void successfulCall() throws Exception {
        JsonNode result = inspect("--method", "tools/call", "--tool-name", "fetch_document", "--tool-arg", "id=doc-1");
        assertThat(result.get("isError").asBoolean()).isFalse();
        assertThat(result.get("content").get(0).get("text").stringValue()).startsWith("Quarterly report");
    }

    @Test
    void permissionDeniedIsAToolError() throws Exception {
        JsonNode error = errorOf(inspect("--method", "tools/call", "--tool-name", "fetch_document",
                "--tool-arg", "id=doc-2"));
        assertThat(error.get("code").stringValue()).isEqualTo("PERMISSION_DENIED");
    }

    @Test
    void crashShowsARefAndNothingElse() throws Exception {
        JsonNode result = inspect("--method", "tools/call", "--tool-name", "generate_report");
        JsonNode error = errorOf(result);
        assertThat(error.get("code").stringValue()).isEqualTo("INTERNAL_ERROR");
        assertThat(Ref.isWellFormed(error.get("ref").stringValue())).isTrue();
        Leaks.assertNothingLeaks(result.toString());
    }

    @Test
    void invalidArgumentsAreAValidationErrorNamingThePointer() throws Exception {
        JsonNode result = inspect("--method", "tools/call", "--tool-name", "create_user",
                "--tool-arg", "name=Bob", "--tool-arg", "email=not-an-email", "--tool-arg", "role=viewer");
        JsonNode error = errorOf(result);
        assertThat(error.get("code").stringValue()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.get("message").stringValue()).isEqualTo("/email: must be an email address");
        Leaks.assertNothingLeaks(result.toString());
    }
}
