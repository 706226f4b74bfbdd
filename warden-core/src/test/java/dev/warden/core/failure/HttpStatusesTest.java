package dev.warden.core.failure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The statuses on which the gateway's and the shapes' old tables disagreed, as the one table
 * decides them (RFC 9110 section 15.5; 423 RFC 4918; 451 RFC 7725), for a status in a structure
 * and one in words alike.
 */
class HttpStatusesTest {

    @ParameterizedTest
    @CsvSource({"405, VALIDATION_ERROR", "406, VALIDATION_ERROR", "411, VALIDATION_ERROR", "416, VALIDATION_ERROR",
            "423, CONFLICT", "451, PERMISSION_DENIED"})
    void theStatusesTheOldTablesDisagreedOn(int status, ErrorCode code) {
        assertThat(HttpStatuses.code(status)).contains(code);
        assertThat(HttpStatuses.in("request failed with status code " + status).flatMap(HttpStatuses::code))
                .contains(code);
    }

    @Test
    void aStatusThatSaysNothingCertainMapsToNothing() {
        assertThat(HttpStatuses.code(402)).isEmpty();
        assertThat(HttpStatuses.code(418)).isEmpty();
    }
}
