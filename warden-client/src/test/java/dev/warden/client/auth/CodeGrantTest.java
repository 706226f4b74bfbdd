package dev.warden.client.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** RFC 9207 as both grants judge it ({@link CodeGrant#issuerMatches}): the metadata's issuer, and a promised iss present. */
class CodeGrantTest {

    private static ServerMetadata metadata(boolean advertised) {
        return ServerMetadata.of(Json.mapper().readTree("{\"issuer\":\"https://as.example\","
                + "\"authorization_endpoint\":\"https://as.example/authorize\",\"token_endpoint\":\"https://as.example/token\","
                + "\"code_challenge_methods_supported\":[\"S256\"],"
                + "\"authorization_response_iss_parameter_supported\":" + advertised + "}")).orElseThrow();
    }

    @Test
    void anIssMustBeTheMetadatasIssuerExactly() {
        assertThat(CodeGrant.issuerMatches(metadata(false), Optional.of("https://as.example"))).isTrue();
        assertThat(CodeGrant.issuerMatches(metadata(false), Optional.of("https://as.example/"))).isFalse();
        assertThat(CodeGrant.issuerMatches(metadata(false), Optional.of("https://evil.example"))).isFalse();
    }

    @Test
    void anIssTheServerPromisedMustBeThere() {
        assertThat(CodeGrant.issuerMatches(metadata(false), Optional.empty())).as("not promised").isTrue();
        assertThat(CodeGrant.issuerMatches(metadata(true), Optional.empty())).as("absent while advertised").isFalse();
        assertThat(CodeGrant.issuerMatches(metadata(true), Optional.of("https://as.example"))).isTrue();
    }
}
