package dev.warden.core.shape;

import static dev.warden.core.shape.Samples.read;
import static dev.warden.core.shape.Samples.v;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import org.junit.jupiter.api.Test;

/** Each validation library's real output (captured by scripts/capture-error-shapes) gives its violations. */
class CapturedLibraryShapesTest {

    @Test
    void zodIssuesGiveEachPathAndMessage() {
        Extracted e = read("zod-issues.json");
        assertThat(e.shape()).isEqualTo("zod");
        assertThat(e.code()).contains(ErrorCode.VALIDATION_ERROR);
        assertThat(e.violations()).containsExactly(
                v("/name", "Invalid input: expected string, received undefined"),
                v("/email", "Invalid email address"),
                v("/age", "Too small: expected number to be >=0"));
    }

    @Test
    void aZodErrorMessageIsItsIssuesAsJsonText() {
        String message = Samples.json("zod-error-message.json").get("message").stringValue();
        Extracted e = ErrorShapes.ofDefaults().readText(message).orElseThrow();
        assertThat(e.shape()).isEqualTo("zod");
        assertThat(e.violations()).contains(v("/email", "Invalid email address"));
    }

    @Test
    void zodFlattenGivesTheFieldErrors() {
        assertThat(read("zod-flatten.json").violations()).containsExactly(
                v("/name", "Invalid input: expected string, received undefined"),
                v("/email", "Invalid email address"),
                v("/age", "Too small: expected number to be >=0"));
    }

    @Test
    void zodFormatGivesTheNestedErrors() {
        assertThat(read("zod-format.json").violations()).contains(v("/email", "Invalid email address"));
    }

    @Test
    void ajvRequiredPointsAtTheMissingProperty() {
        Extracted e = read("ajv-errors.json");
        assertThat(e.shape()).isEqualTo("json-schema");
        assertThat(e.code()).contains(ErrorCode.VALIDATION_ERROR);
        assertThat(e.violations()).containsExactly(
                v("/name", "must have required property 'name'"),
                v("/email", "must match format \"email\""),
                v("/age", "must be >= 0"),
                v("/address/city", "must have required property 'city'"));
    }

    @Test
    void pythonJsonschemaRequiredPointsAtTheQuotedProperty() {
        Extracted e = read("jsonschema-errors.json");
        assertThat(e.shape()).isEqualTo("json-schema");
        assertThat(e.violations()).containsExactly(
                v("/name", "'name' is a required property"),
                v("/address/city", "'city' is a required property"),
                v("/age", "-1 is less than the minimum of 0"),
                v("/email", "'not-an-email' is not a 'email'"));
    }

    @Test
    void networkntErrorsGiveInstanceLocationAndMessage() {
        assertThat(read("networknt-errors.json").violations()).containsExactly(
                v("/email", "does not match the email pattern must be a valid RFC 5321 Mailbox"),
                v("/age", "must have a minimum value of 0"),
                v("/address/city", "required property 'city' not found"),
                v("/name", "required property 'name' not found"));
    }

    @Test
    void networkntToStringLinesGiveTheSameViolations() {
        assertThat(read("networknt-error-strings.json").violations())
                .isEqualTo(read("networknt-errors.json").violations());
    }

    @Test
    void networkntListOutputGivesTheSameViolations() {
        assertThat(read("networknt-output-list.json").violations())
                .isEqualTo(read("networknt-errors.json").violations());
    }

    @Test
    void pydanticLocAndMsg() {
        Extracted e = read("pydantic-errors.json");
        assertThat(e.shape()).isEqualTo("pydantic");
        assertThat(e.violations()).containsExactly(
                v("/name", "Field required"),
                v("/email", "String should match pattern '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$'"),
                v("/age", "Input should be greater than or equal to 0"),
                v("/address/city", "Field required"));
    }

    @Test
    void fastApi422KeepsTheRequestPartInThePointer() {
        Extracted e = read("pydantic-fastapi-422.json");
        assertThat(e.code()).contains(ErrorCode.VALIDATION_ERROR);
        assertThat(e.violations()).contains(v("/body/address/city", "Field required"));
    }

    @Test
    void joiDetails() {
        Extracted e = read("joi-validation-error.json");
        assertThat(e.shape()).isEqualTo("joi");
        assertThat(e.violations()).containsExactly(
                v("/name", "\"name\" is required"),
                v("/email", "\"email\" must be a valid email"),
                v("/age", "\"age\" must be greater than or equal to 0"));
    }

    @Test
    void yupInnerDottedPaths() {
        Extracted e = read("yup-validation-error.json");
        assertThat(e.shape()).isEqualTo("yup");
        assertThat(e.violations()).containsExactly(
                v("/name", "name is a required field"),
                v("/email", "email must be a valid email"),
                v("/age", "age must be greater than or equal to 0"),
                v("/address/city", "address.city is a required field"));
    }

    @Test
    void classValidatorOneViolationPerConstraintWithChildrenNested() {
        Extracted e = read("class-validator-errors.json");
        assertThat(e.shape()).isEqualTo("class-validator");
        assertThat(e.violations()).containsExactly(
                v("/name", "name must be a string"),
                v("/name", "name should not be empty"),
                v("/email", "email must be an email"),
                v("/age", "age must not be less than 0"),
                v("/address/city", "city must be a string"),
                v("/address/city", "city should not be empty"));
    }

    @Test
    void graphqlBadUserInputIsAValidationErrorAtTheFailedField() {
        Extracted e = read("graphql-bad-user-input.json");
        assertThat(e.shape()).isEqualTo("graphql");
        assertThat(e.code()).contains(ErrorCode.VALIDATION_ERROR);
        assertThat(e.violations()).containsExactly(v("/createUser", "must be a valid email"));
    }

    @Test
    void graphqlNotFoundCode() {
        assertThat(read("graphql-not-found.json").code()).contains(ErrorCode.NOT_FOUND);
    }

    @Test
    void graphqlForbiddenIsPermissionDenied() {
        assertThat(read("graphql-forbidden.json").code()).contains(ErrorCode.PERMISSION_DENIED);
    }

    @Test
    void graphqlRequestErrorWithoutDataIsAValidationErrorWithItsMessage() {
        Extracted e = read("graphql-variable-coercion.json");
        assertThat(e.code()).contains(ErrorCode.VALIDATION_ERROR);
        assertThat(e.violations()).isEmpty();
        assertThat(e.message()).hasValueSatisfying(m -> assertThat(m).contains("was not provided"));
    }
}
