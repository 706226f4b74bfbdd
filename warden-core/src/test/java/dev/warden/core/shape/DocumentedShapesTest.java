package dev.warden.core.shape;

import static dev.warden.core.shape.Samples.read;
import static dev.warden.core.shape.Samples.v;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The examples of the specifications and providers' documentation (see the samples' README). */
class DocumentedShapesTest {

    @Test
    void jsonApiSourcePointerAndDetail() {
        Extracted e = read("docs-jsonapi-basic.json");
        assertThat(e.shape()).isEqualTo("jsonapi");
        assertThat(e.code()).contains(ErrorCode.VALIDATION_ERROR);
        assertThat(e.violations()).containsExactly(
                v("/data/attributes/firstName", "First name must contain at least two characters."));
    }

    @Test
    void jsonApiCodeComesFromTheFirstErrorsStatus() {
        Extracted e = read("docs-jsonapi-multiple.json");
        assertThat(e.code()).contains(ErrorCode.PERMISSION_DENIED);
        assertThat(e.violations()).hasSize(3);
    }

    @Test
    void jsonApiSourceParameterPointsAtTheParameter() {
        assertThat(read("docs-jsonapi-parameter.json").violations()).containsExactly(
                v("/include", "The resource does not have an `auther` relationship path."));
    }

    @Test
    void rfc9457ErrorsWithFragmentPointers() {
        Extracted e = read("docs-rfc9457-errors.json");
        assertThat(e.shape()).isEqualTo("problem-details");
        assertThat(e.code()).contains(ErrorCode.VALIDATION_ERROR);
        assertThat(e.violations()).containsExactly(
                v("/age", "must be a positive integer"),
                v("/profile/color", "must be 'green', 'red' or 'blue'"));
        assertThat(e.message()).contains("Your request is not valid.");
    }

    @Test
    void rfc7807InvalidParams() {
        assertThat(read("docs-rfc7807-invalid-params.json").violations()).containsExactly(
                v("/age", "must be a positive integer"),
                v("/color", "must be 'green', 'red' or 'blue'"));
    }

    @Test
    void problemWithoutStatusGivesItsDetailAndNoCode() {
        Extracted e = read("docs-rfc9457-out-of-credit.json");
        assertThat(e.code()).isEmpty();
        assertThat(e.message()).contains("Your current balance is 30, but that costs 50.");
    }

    @Test
    void googleBadRequestFieldViolationsAreDottedPaths() {
        Extracted e = read("docs-google-bad-request.json");
        assertThat(e.shape()).isEqualTo("google-api");
        assertThat(e.code()).contains(ErrorCode.VALIDATION_ERROR);
        assertThat(e.violations()).containsExactly(
                v("/emailAddresses/1/email", "must be a valid email"),
                v("/fullName", "must not be empty"));
    }

    @Test
    void googleInvalidArgumentWithoutFieldsGivesCodeAndMessage() {
        Extracted e = read("docs-google-api-key-invalid.json");
        assertThat(e.code()).contains(ErrorCode.VALIDATION_ERROR);
        assertThat(e.message()).contains("API key not valid. Please pass a valid API key.");
    }

    @Test
    void googleResourceExhaustedWithRetryInfoIsRateLimitedWithTheDelay() {
        Extracted e = read("docs-google-resource-exhausted.json");
        assertThat(e.code()).contains(ErrorCode.RATE_LIMITED);
        assertThat(e.retryAfter()).contains(Duration.ofMillis(1500));
    }

    @Test
    void grpcStatusNumericCode() {
        Extracted e = read("docs-grpc-status-not-found.json");
        assertThat(e.shape()).isEqualTo("grpc-status");
        assertThat(e.code()).contains(ErrorCode.NOT_FOUND);
    }

    @Test
    void awsNamespacedTypeResourceNotFound() {
        Extracted e = read("docs-aws-dynamodb-not-found.json");
        assertThat(e.shape()).isEqualTo("aws");
        assertThat(e.code()).contains(ErrorCode.NOT_FOUND);
    }

    @Test
    void awsProvisionedThroughputIsRateLimited() {
        assertThat(read("docs-aws-dynamodb-throughput.json").code()).contains(ErrorCode.RATE_LIMITED);
    }

    @Test
    void awsValidationException() {
        assertThat(read("docs-aws-validation.json").code()).contains(ErrorCode.VALIDATION_ERROR);
    }
}
