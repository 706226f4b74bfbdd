package dev.warden.core.sanitize.path;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The founding case (ash-project/ash_ai#158): a JSON:API validation error whose fix is a JSON
 * pointer such as {@code /data/attributes/email}. A pointer is told from a server's path by where it
 * stands (a validation message's head, a {@code pointer}/{@code instancePath} member), never by its
 * first segment, in every shape and with or without the caller's arguments.
 */
class JsonPointerSurvivesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String JSON_API = "{\"errors\":[{\"detail\":\"At least one persona is required\","
            + "\"source\":{\"pointer\":\"/data/relationships/personas\"}}]}";
    private static final JsonNode ARGUMENTS = JSON.readTree(
            "{\"data\":{\"attributes\":{\"email\":\"not-an-email\"},\"relationships\":{\"personas\":[]}}}");

    private final Sanitizer sanitizer = Sanitizer.ofDefaults();

    private String text(String untrusted, CallerInput caller) {
        return sanitizer.sanitize(untrusted, Policy.REDACT, ErrorCode.VALIDATION_ERROR, caller).output();
    }

    private JsonNode json(JsonNode untrusted, CallerInput caller) {
        return sanitizer.sanitizeJson(untrusted, Policy.REDACT, ErrorCode.VALIDATION_ERROR, caller).value();
    }

    @Test
    void aPointerHeadingAValidationMessageStays() {
        String message = "/data/attributes/email: must be a valid email";
        assertThat(text(message, CallerInput.none())).isEqualTo(message);
        assertThat(text(message, CallerInput.of(ARGUMENTS))).isEqualTo(message);
        String several = "Invalid input:\n/data/attributes/email: must be a valid email\n"
                + "/data/relationships/personas: At least one persona is required";
        assertThat(text(several, CallerInput.none())).isEqualTo(several);
    }

    @Test
    void aJsonApiErrorDocumentKeepsItsPointerAsText() {
        assertThat(text(JSON_API, CallerInput.none())).isEqualTo(JSON_API);
        assertThat(text(JSON_API, CallerInput.of(ARGUMENTS))).isEqualTo(JSON_API);
    }

    @Test
    void aJsonApiErrorDocumentKeepsItsPointerAsJson() {
        JsonNode document = JSON.readTree(JSON_API);
        assertThat(json(document, CallerInput.none())).isEqualTo(document);
        assertThat(json(document, CallerInput.of(ARGUMENTS))).isEqualTo(document);
    }

    @Test
    void aJsonRpcErrorDataKeepsItsPointer() {
        JsonNode data = JSON.readTree("{\"errors\":[{\"status\":\"422\",\"detail\":\"must be a valid email\","
                + "\"source\":{\"pointer\":\"/data/attributes/email\"}}]}");
        assertThat(json(data, CallerInput.none())).isEqualTo(data);
    }

    @Test
    void aDoubleEncodedDocumentKeepsItsPointer() {
        String once = JSON.writeValueAsString(JSON_API);
        assertThat(text(once, CallerInput.none())).isEqualTo(once);
        JsonNode content = JSON.createObjectNode().put("text", once);
        assertThat(json(content, CallerInput.none())).isEqualTo(content);
        assertThat(json(content, CallerInput.of(ARGUMENTS))).isEqualTo(content);
    }

    @Test
    void ajvInstancePathsStay() {
        // ajv 8's ErrorObject for {"data":{"attributes":{"email":"x"}}} against format "email"
        JsonNode errors = JSON.readTree("[{\"instancePath\":\"/data/attributes/email\",\"schemaPath\":"
                + "\"#/properties/data/properties/attributes/properties/email/format\",\"keyword\":\"format\","
                + "\"params\":{\"format\":\"email\"},\"message\":\"must match format \\\"email\\\"\"}]");
        assertThat(json(errors, CallerInput.none())).isEqualTo(errors);
        assertThat(text(errors.toString(), CallerInput.none())).isEqualTo(errors.toString());
    }

    @Test
    void aServersPathElsewhereIsStillRedacted() {
        assertThat(text("open /data/secrets/prod: no such file or directory", CallerInput.none()))
                .isEqualTo("open [redacted:path]: no such file or directory");
        assertThat(text("/data/app/config.yml: mapping values are not allowed here", CallerInput.none()))
                .isEqualTo("[redacted:path]: mapping values are not allowed here");
        assertThat(text("/home/alice/notes: Permission denied", CallerInput.none()))
                .isEqualTo("[redacted:path]: Permission denied");
        assertThat(text("{\"file\":\"/data/secrets/prod\"}", CallerInput.none()))
                .isEqualTo("{\"file\":\"[redacted:path]\"}");
        assertThat(text("{\"pointer\":\"/srv/app/lib/db.js:12:5\"}", CallerInput.none()))
                .isEqualTo("{\"pointer\":\"[redacted:path]\"}");
    }
}
