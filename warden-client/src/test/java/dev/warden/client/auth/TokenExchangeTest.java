package dev.warden.client.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.warden.client.http.HttpAuthorization;
import dev.warden.core.transport.UnauthorizedException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * RFC 8693 token exchange against a token endpoint on loopback that records what it receives (the
 * real authorization server's exchange runs in the end-to-end tests): the caller's token goes to
 * the authorization server only, the upstream gets what it issued.
 */
class TokenExchangeTest {

    private HttpServer server;
    private URI tokenEndpoint;
    private final List<Map<String, String>> forms = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-24T10:00:00Z"));
    private int issued;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/token", ex -> {
            Map<String, String> form = new HashMap<>();
            for (String pair : new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).split("&")) {
                String[] kv = pair.split("=", 2);
                form.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8), URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
            }
            forms.add(form);
            authorizations.add(ex.getRequestHeaders().getFirst("Authorization"));
            boolean ok = !"revoked".equals(form.get("subject_token"));
            byte[] body = (ok ? "{\"access_token\":\"upstream-" + (++issued) + "\",\"token_type\":\"Bearer\","
                    + "\"issued_token_type\":\"urn:ietf:params:oauth:token-type:access_token\",\"expires_in\":300}"
                    : "{\"error\":\"invalid_grant\",\"error_description\":\"subject token revoked at 10.1.2.3\"}")
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(ok ? 200 : 400, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        tokenEndpoint = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/token");
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private TokenExchange exchange() {
        return TokenExchange.builder(tokenEndpoint, "gateway", "gw-secret")
                .resource(URI.create("https://files.internal/mcp")).scopes(Set.of("files:read"))
                .clock(new Clock() {
                    @Override
                    public Instant instant() {
                        return now.get();
                    }

                    @Override
                    public java.time.ZoneId getZone() {
                        return ZoneOffset.UTC;
                    }

                    @Override
                    public Clock withZone(java.time.ZoneId zone) {
                        return this;
                    }
                }).build();
    }

    @Test
    void theCallersTokenIsExchangedForOneIssuedToTheUpstream() {
        HttpAuthorization upstream = exchange().onBehalfOf(() -> Optional.of("caller-token"));

        assertThat(upstream.header()).hasValue("Bearer upstream-1");
        assertThat(forms).singleElement().satisfies(form -> {
            assertThat(form).containsEntry("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange")
                    .containsEntry("subject_token", "caller-token")
                    .containsEntry("subject_token_type", "urn:ietf:params:oauth:token-type:access_token")
                    .containsEntry("resource", "https://files.internal/mcp")
                    .containsEntry("scope", "files:read");
        });
        assertThat(authorizations.get(0)).startsWith("Basic ");
    }

    @Test
    void theExchangedTokenIsKeptUntilItIsAboutToExpireOrTheCallersTokenChanges() {
        AtomicReference<String> caller = new AtomicReference<>("caller-token");
        HttpAuthorization upstream = exchange().onBehalfOf(() -> Optional.of(caller.get()));

        upstream.header();
        upstream.header();
        assertThat(forms).hasSize(1);
        now.set(now.get().plus(Duration.ofSeconds(290)));
        assertThat(upstream.header()).hasValue("Bearer upstream-2");
        caller.set("stepped-up-token");
        assertThat(upstream.header()).hasValue("Bearer upstream-3");
        assertThat(forms.get(2)).containsEntry("subject_token", "stepped-up-token");
    }

    @Test
    void aCallerWithoutATokenSendsNothingAndA401SaysWhyWithoutRetrying() {
        HttpAuthorization upstream = exchange().onBehalfOf(Optional::empty);

        assertThat(upstream.header()).isEmpty();
        assertThatThrownBy(() -> upstream.refused(URI.create("https://files.internal/mcp"), Optional.empty(), 401,
                List.of())).isInstanceOf(UnauthorizedException.class).hasMessageContaining("no token to exchange");
        assertThat(forms).isEmpty();
    }

    @Test
    void aRefusedExchangedTokenIsExchangedAgainOnceThenTheRefusalStands() {
        HttpAuthorization upstream = exchange().onBehalfOf(() -> Optional.of("caller-token"));
        URI endpoint = URI.create("https://files.internal/mcp");

        String first = upstream.header().orElseThrow();
        upstream.refused(endpoint, Optional.of(first), 401, List.of("Bearer error=\"invalid_token\""));
        String second = upstream.header().orElseThrow();
        assertThat(second).isEqualTo("Bearer upstream-2");
        assertThatThrownBy(() -> upstream.refused(endpoint, Optional.of(second), 401, List.of()))
                .isInstanceOf(UnauthorizedException.class);
        assertThat(forms).hasSize(2);
    }

    @Test
    void aRefusedExchangeFailsWithTheRfcsErrorCodeNotTheServersDescription() {
        HttpAuthorization upstream = exchange().onBehalfOf(() -> Optional.of("revoked"));

        assertThatThrownBy(upstream::header).isInstanceOf(UnauthorizedException.class)
                .hasMessageContaining("invalid_grant").hasMessageNotContaining("10.1.2.3");
    }
}
