package dev.warden.auth;

import static dev.warden.auth.FakeAuthorizationServer.RESOURCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.identity.Caller;
import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.Verdict;
import dev.warden.core.identity.Verdict.Refusal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import dev.warden.testkit.MutableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiKeysTest {

    static final String CI_KEY = ApiKeys.newKey();
    static final String OPS_KEY = ApiKeys.newKey();

    @TempDir
    Path dir;
    Path file;
    MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
    List<String> problems = new ArrayList<>();
    ResourceServer server;

    static String document(String name, String key, String scopes) {
        return "keys:\n  - name: " + name + "\n    sha256: " + ApiKeys.digest(key) + "\n    scopes: [" + scopes + "]\n";
    }

    @BeforeEach
    void start() throws Exception {
        file = dir.resolve("api-keys.yaml");
        Files.writeString(file, document("ci-bot", CI_KEY, "mcp:tools"));
        server = ResourceServer.custom().clock(clock).requiredScopes(Set.of("mcp:tools"))
                .apiKeys(ApiKeys.custom().file(file).onProblem(problems::add).build()).build();
    }

    Verdict bearer(String key) {
        return server.authenticate(new Credentials(Optional.of("Bearer " + key), Optional.empty()), URI.create(RESOURCE));
    }

    Verdict header(String key) {
        return server.authenticate(new Credentials(Optional.empty(), Optional.of(key)), URI.create(RESOURCE));
    }

    /** Rewrites the file so that it looks changed whatever the file system's time resolution. */
    void rewrite(String text) throws Exception {
        Files.writeString(file, text);
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(60)));
    }

    @Test
    void a_new_key_is_wdn_and_43_base64url_characters_and_its_digest_64_hex_digits() {
        assertThat(CI_KEY).matches("wdn_[A-Za-z0-9_-]{43}");
        assertThat(ApiKeys.digest(CI_KEY)).matches("[0-9a-f]{64}");
        assertThat(ApiKeys.newKey()).isNotEqualTo(ApiKeys.newKey());
    }

    @Test
    void a_valid_key_as_bearer_is_admitted_as_its_named_caller() {
        Caller c = ((Verdict.Admitted) bearer(CI_KEY)).caller();
        assertThat(c.subject()).isEqualTo("key:ci-bot");
        assertThat(c.issuer()).isEqualTo("api-key");
        assertThat(c.kind()).isEqualTo(Caller.Kind.API_KEY);
        assertThat(c.scopes()).containsExactly("mcp:tools");
        assertThat(c.token()).isEmpty();
    }

    @Test
    void a_valid_key_in_x_api_key_is_admitted() {
        assertThat(header(CI_KEY)).isInstanceOf(Verdict.Admitted.class);
    }

    @Test
    void a_wrong_key_and_an_unknown_key_get_the_same_verdict() {
        String wrong = CI_KEY.substring(0, CI_KEY.length() - 1) + (CI_KEY.endsWith("A") ? "B" : "A");
        Verdict w = bearer(wrong);
        Verdict u = bearer(ApiKeys.newKey());
        assertThat(w).isInstanceOf(Verdict.Refused.class).isEqualTo(u);
        assertThat(((Verdict.Refused) w).refusal()).isEqualTo(Refusal.INVALID_TOKEN);
        assertThat(header(wrong)).isEqualTo(u);
    }

    @Test
    void both_headers_are_an_invalid_request() {
        Verdict v = server.authenticate(new Credentials(Optional.of("Bearer " + CI_KEY), Optional.of(CI_KEY)), URI.create(RESOURCE));
        assertThat(((Verdict.Refused) v).refusal()).isEqualTo(Refusal.INVALID_REQUEST);
    }

    @Test
    void a_key_without_the_required_scopes_is_insufficient() throws Exception {
        rewrite(document("reader", OPS_KEY, "mcp:read"));
        clock.advance(Duration.ofSeconds(1));
        Verdict.Refused r = (Verdict.Refused) bearer(OPS_KEY);
        assertThat(r.refusal()).isEqualTo(Refusal.INSUFFICIENT_SCOPE);
        assertThat(r.scopes()).containsExactlyInAnyOrder("mcp:tools", "mcp:read");
    }

    @Test
    void a_changed_file_is_reloaded_within_a_second_of_the_clock() throws Exception {
        assertThat(bearer(CI_KEY)).isInstanceOf(Verdict.Admitted.class);
        rewrite(document("ops", OPS_KEY, "mcp:tools"));
        assertThat(bearer(OPS_KEY)).as("looked at less than a second ago").isInstanceOf(Verdict.Refused.class);
        clock.advance(Duration.ofSeconds(1));
        assertThat(((Verdict.Admitted) bearer(OPS_KEY)).caller().subject()).isEqualTo("key:ops");
        assertThat(bearer(CI_KEY)).as("removed from the file").isInstanceOf(Verdict.Refused.class);
    }

    @Test
    void a_broken_file_keeps_the_old_keys_and_is_reported_once() throws Exception {
        rewrite("keys: [ { name: x, sha256: not-hex } ]");
        for (int i = 0; i < 3; i++) {
            clock.advance(Duration.ofSeconds(2));
            assertThat(bearer(CI_KEY)).isInstanceOf(Verdict.Admitted.class);
        }
        assertThat(problems).singleElement().asString().contains("keys[0].sha256").doesNotContain("not-hex");
    }

    @Test
    void a_deleted_file_revokes_every_key_it_held_and_is_reported_once() throws Exception {
        assertThat(bearer(CI_KEY)).isInstanceOf(Verdict.Admitted.class);
        Files.delete(file);
        for (int i = 0; i < 3; i++) {
            clock.advance(Duration.ofSeconds(2));
            assertThat(((Verdict.Refused) bearer(CI_KEY)).refusal()).isEqualTo(Refusal.INVALID_TOKEN);
        }
        assertThat(problems).singleElement().asString().contains("is gone").contains("revoked");
    }

    @Test
    void a_deleted_file_written_again_is_read_again() throws Exception {
        Files.delete(file);
        clock.advance(Duration.ofSeconds(2));
        assertThat(bearer(CI_KEY)).isInstanceOf(Verdict.Refused.class);
        rewrite(document("ci-bot", CI_KEY, "mcp:tools"));
        clock.advance(Duration.ofSeconds(2));
        assertThat(bearer(CI_KEY)).isInstanceOf(Verdict.Admitted.class);
    }

    @Test
    void a_missing_file_at_start_is_a_configuration_error() {
        assertThatThrownBy(() -> ApiKeys.custom().file(dir.resolve("absent.yaml")).build())
                .isInstanceOf(AuthConfigException.class).hasMessageContaining("absent.yaml");
    }

    @Test
    void a_scope_in_the_keys_file_outside_rfc_6749s_grammar_is_named() throws Exception {
        Files.writeString(file, "keys: [ { name: x, sha256: " + ApiKeys.digest(CI_KEY) + ", scopes: [\"mcp:tools\", \"a b\"] } ]");

        assertThatThrownBy(() -> ApiKeys.custom().file(file).build()).isInstanceOf(AuthConfigException.class)
                .hasMessageContaining("keys[0].scopes[1]: \"a b\" is not a scope (RFC 6749");
    }

    @Test
    void keys_come_from_an_environment_variable_too() {
        ApiKeys keys = ApiKeys.custom().env("WARDEN_API_KEYS", Map.of("WARDEN_API_KEYS",
                "{\"keys\":[{\"name\":\"env-bot\",\"sha256\":\"" + ApiKeys.digest(OPS_KEY) + "\",\"scopes\":[\"mcp:tools\"]}]}")::get)
                .file(file).build();
        ResourceServer both = ResourceServer.custom().clock(clock).apiKeys(keys).build();
        URI r = URI.create(RESOURCE);
        assertThat(((Verdict.Admitted) both.authenticate(new Credentials(Optional.empty(), Optional.of(OPS_KEY)), r))
                .caller().subject()).isEqualTo("key:env-bot");
        assertThat(((Verdict.Admitted) both.authenticate(new Credentials(Optional.empty(), Optional.of(CI_KEY)), r))
                .caller().subject()).isEqualTo("key:ci-bot");
    }

    @Test
    void a_broken_file_at_start_is_a_configuration_error_naming_the_field() throws Exception {
        rewrite("keys:\n  - name: x\n    sha256: abc\n");
        assertThatThrownBy(() -> ApiKeys.fromFile(file)).isInstanceOf(AuthConfigException.class)
                .hasMessageContaining("keys[0].sha256").hasMessageContaining("64 hex digits");
    }

    @Test
    void an_api_key_without_api_keys_configured_is_refused() {
        ResourceServer jwtOnly = ResourceServer.custom().issuer(Issuer.of(URI.create("https://as.example"))).build();
        Verdict v = jwtOnly.authenticate(new Credentials(Optional.of("Bearer " + CI_KEY), Optional.empty()), URI.create(RESOURCE));
        assertThat(((Verdict.Refused) v).refusal()).isEqualTo(Refusal.INVALID_TOKEN);
    }
}
