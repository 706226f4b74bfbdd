package dev.warden.core.sanitize.database;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.json.Json;
import dev.warden.core.sanitize.CallerInput;
import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.SanitizedJson;
import dev.warden.core.sanitize.SanitizedText;
import dev.warden.core.sanitize.Sanitizer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A database error's DETAIL is read as one wherever it stands: a JSON member of its own (node-postgres
 * puts it in {@code detail}, servers copy that into an error's {@code data}), a string nested at any
 * depth, JSON inside a string, or a line of text with no error message above it. The fixture is
 * PostgreSQL 15's unique violation as node-postgres reported it ({@code err.message}, {@code code},
 * {@code detail}, {@code constraint}, {@code table}, {@code schema}).
 */
class DatabaseDetailAnywhereTest {

    private static final String OTHER_CUSTOMER = "grace.hopper@customer-b.example";
    private static final CallerInput CALLER = CallerInput.of(
            Json.mapper().readTree("{\"email\":\"ada@customer-a.example\",\"name\":\"Ada\"}"));

    private static JsonNode realError() {
        try (InputStream in = DatabaseDetailAnywhereTest.class.getResourceAsStream(
                "/sanitizer-json/pg-unique-violation-data.json")) {
            return Json.mapper().readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static SanitizedJson sanitized(JsonNode value) {
        return Sanitizer.ofDefaults().sanitizeJson(value, Policy.REDACT, ErrorCode.UPSTREAM_ERROR, CALLER);
    }

    @Test
    void aDetailMemberOfErrorDataLosesTheValueTheCallerDidNotSendAndKeepsTheColumn() {
        SanitizedJson result = sanitized(realError());

        String detail = result.value().at("/error/data/detail").stringValue();
        assertThat(detail).doesNotContain(OTHER_CUSTOMER).startsWith("Key (email)=(").endsWith(") already exists.");
        assertThat(result.suggestedCode()).contains(ErrorCode.CONFLICT);
    }

    @Test
    void aDetailNestedDeepAndEncodedAsJsonInAStringIsReadAsOne() {
        String inner = Json.write(realError().at("/error/data"));
        JsonNode value = Json.mapper().readTree("{\"errors\":[{\"cause\":{\"pg\":" + Json.mapper().writeValueAsString(inner)
                + "}}],\"note\":\"Failing row contains (7, " + OTHER_CUSTOMER + ", null).\"}");

        String written = Json.write(sanitized(value).value());

        assertThat(written).doesNotContain(OTHER_CUSTOMER).contains("Key (email)=(").contains("Failing row contains (");
    }

    @Test
    void aDetailLineInTextWithNoErrorAboveItIsReadAsOne() {
        SanitizedText result = Sanitizer.ofDefaults().sanitize("Key (email)=(" + OTHER_CUSTOMER + ") already exists.",
                Policy.REDACT, ErrorCode.UPSTREAM_ERROR, CallerInput.none());

        assertThat(result.output()).doesNotContain(OTHER_CUSTOMER).contains("already exists.");
    }

    @Test
    void whatTheCallerSentMayComeBackInADetail() {
        CallerInput sent = CallerInput.of(Json.mapper().readTree("{\"email\":\"" + OTHER_CUSTOMER + "\"}"));

        SanitizedJson result = Sanitizer.ofDefaults().sanitizeJson(realError(), Policy.REDACT,
                ErrorCode.UPSTREAM_ERROR, sent);

        assertThat(result.value().at("/error/data/detail").stringValue())
                .isEqualTo("Key (email)=(" + OTHER_CUSTOMER + ") already exists.");
    }

    @Test
    void aMysqlDuplicateEntryInADataMemberLosesItsValue() {
        JsonNode value = Json.mapper().readTree("{\"errno\":1062,\"sqlState\":\"23000\",\"sqlMessage\":\"Duplicate entry '"
                + OTHER_CUSTOMER + "' for key 'users.email'\"}");

        assertThat(Json.write(sanitized(value).value())).doesNotContain(OTHER_CUSTOMER);
    }
}
