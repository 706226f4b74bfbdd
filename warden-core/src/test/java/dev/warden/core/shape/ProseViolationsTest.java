package dev.warden.core.shape;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Violation;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Texts as Joi, the TypeScript SDK and pydantic v1 wrote them (the harvested corpus has them whole). */
class ProseViolationsTest {

    private static final Set<String> SENT = Set.of("email", "name");

    @Test
    void aQuotedArgumentNameAtTheStartIsThePointer() {
        Extracted e = ProseViolations.read("\"email\" must be a valid email", SENT).orElseThrow();

        assertThat(e.violations()).containsExactly(new Violation("/email", "\"email\" must be a valid email"));
        assertThat(e.code()).contains(ErrorCode.VALIDATION_ERROR);
    }

    @Test
    void aMessageEndingAtAnArgumentNameIsThatArgumentsViolation() {
        Extracted e = ProseViolations.read(
                "Input validation error: Invalid arguments for tool signup: Invalid email at email", SENT).orElseThrow();

        assertThat(e.violations()).containsExactly(new Violation("/email", "Invalid email"));
    }

    @Test
    void everyLineEndingAtAnArgumentNameIsOneViolationNoneDropped() {
        // the TypeScript SDK 1.32 with zod 4 (time-mcp's convert_time, both arguments left out)
        Extracted e = ProseViolations.read("MCP error -32602: Input validation error: Invalid arguments for tool "
                + "convert_time: Invalid input: expected string, received undefined at targetTimezone\n"
                + "Invalid input: expected string, received undefined at time", java.util.Set.of("targetTimezone", "time"))
                .orElseThrow();

        assertThat(e.violations()).containsExactly(
                new Violation("/targetTimezone", "expected string, received undefined"),
                new Violation("/time", "expected string, received undefined"));
    }

    @Test
    void aLineThatIsAnArgumentNameThenAnIndentedMessageIsPydanticsForm() {
        Extracted e = ProseViolations.read("1 validation error for Signup\nemail\n  string does not match regex "
                + "\"^x$\" (type=value_error.str.regex; pattern=^x$)", SENT).orElseThrow();

        assertThat(e.violations()).containsExactly(new Violation("/email", "string does not match regex \"^x$\""));
    }

    @Test
    void aNameTheCallerDidNotSendIsNoPointer() {
        assertThat(ProseViolations.read("\"cnry_internal_field\" must be a string", SENT)).isEmpty();
        assertThat(ProseViolations.read("lookup failed at cnry_tbl_7f3a", SENT)).isEmpty();
    }

    @Test
    void proseThatNamesNoArgumentGivesNothing() {
        assertThat(ProseViolations.read("connection reset by peer", SENT)).isEmpty();
    }

    @Test
    void aHostileTextIsReadOnlyToABoundedLength() {
        String hostile = "email\n".repeat(1_000_000);
        assertThat(ProseViolations.read(hostile, SENT)).isEmpty();
    }

    // Printed by Debian's python3-jsonschema 4.x: str(ValidationError) and a traceback's last lines.

    @Test
    void jsonschemasOnInstanceLineIsThePointerAndItsFirstParagraphTheMessage() {
        Extracted e = ProseViolations.read("0 is less than the minimum of 1\n\nFailed validating 'minimum' in "
                + "schema['properties']['items']['items']['properties']['qty']:\n    {'type': 'integer', 'minimum': 1}"
                + "\n\nOn instance['items'][0]['qty']:\n    0", Set.of("items")).orElseThrow();

        assertThat(e.violations()).containsExactly(new Violation("/items/0/qty", "0 is less than the minimum of 1"));
    }

    @Test
    void inATracebackJsonschemasMessageIsTheExceptionLine() {
        Extracted e = ProseViolations.read("Traceback (most recent call last):\n  File \"/srv/app/v.py\", line 13, "
                + "in <module>\n    raise error\njsonschema.exceptions.ValidationError: 'ada-at-example' is not a "
                + "'email'\n\nFailed validating 'format' in schema['properties']['email']:\n    {'format': 'email'}"
                + "\n\nOn instance['email']:\n    'ada-at-example'", SENT).orElseThrow();

        assertThat(e.violations()).containsExactly(new Violation("/email", "'ada-at-example' is not a 'email'"));
    }

    @Test
    void anInstanceTheCallerDidNotNameIsNoPointer() {
        assertThat(ProseViolations.read("x\n\nFailed validating 'type' in schema:\n    {}\n\nOn instance['secret_"
                + "column']:\n    1", SENT)).isEmpty();
    }
}
