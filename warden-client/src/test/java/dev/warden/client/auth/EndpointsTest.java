package dev.warden.client.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class EndpointsTest {

    @Test
    void credentialsGoOnlyOverHttpsOrToThisMachine() {
        assertThat(Endpoints.secure(URI.create("https://as.example/token"))).isTrue();
        assertThat(Endpoints.secure(URI.create("http://localhost:8080/token"))).isTrue();
        assertThat(Endpoints.secure(URI.create("http://127.0.0.1/token"))).isTrue();
        assertThat(Endpoints.secure(URI.create("http://[::1]:9/token"))).isTrue();
        assertThat(Endpoints.secure(URI.create("http://as.example/token"))).isFalse();
        assertThat(Endpoints.secure(URI.create("http://10.0.0.1/token"))).isFalse();
        assertThat(Endpoints.secure(URI.create("https://as.example/token#frag"))).isFalse();
        assertThat(Endpoints.secure(URI.create("ftp://as.example/x"))).isFalse();
    }

    @Test
    void aResourceCoversItsOwnPathAndWhatIsBelowIt() {
        URI endpoint = URI.create("https://mcp.example/api/mcp");
        assertThat(Endpoints.covers(URI.create("https://mcp.example/api/mcp"), endpoint)).isTrue();
        assertThat(Endpoints.covers(URI.create("https://mcp.example/"), endpoint)).isTrue();
        assertThat(Endpoints.covers(URI.create("https://mcp.example/api"), endpoint)).isTrue();
        assertThat(Endpoints.covers(URI.create("https://mcp.example/ap"), endpoint)).isFalse();
        assertThat(Endpoints.covers(URI.create("https://other.example/api/mcp"), endpoint)).isFalse();
        assertThat(Endpoints.covers(URI.create("https://mcp.example:8443/api/mcp"), endpoint)).isFalse();
    }

    @Test
    void pkceChallengeIsTheBase64urlSha256OfTheVerifier() {
        // expected value from an independent implementation (Python's hashlib + urlsafe_b64encode)
        assertThat(Pkce.s256("dBjftJeZ4CVP-mJ92K1qbEUcZcsvZzMDrGSGC-8mgoI"))
                .isEqualTo("iPfVxCh_xpvlauqK6FHZ4z8ocEWS6lCpJWNlTUqAvl4");
        assertThat(Pkce.create().verifier()).hasSizeBetween(43, 128);
    }
}
