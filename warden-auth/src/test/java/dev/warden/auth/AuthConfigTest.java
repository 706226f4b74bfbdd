package dev.warden.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

class AuthConfigTest {

    static final YAMLMapper YAML = YAMLMapper.builder().build();

    @TempDir
    Path dir;

    ResourceServer read(String yaml) {
        return AuthConfig.read(YAML.readTree(yaml), "auth", dir, Map.<String, String>of()::get).build();
    }

    void refused(String yaml, String message) {
        assertThatThrownBy(() -> read(yaml)).isInstanceOf(AuthConfigException.class).hasMessageContaining(message);
    }

    @Test
    void the_agreed_section_is_read() throws Exception {
        Files.writeString(dir.resolve("keys.yaml"), "keys: []\n");
        ResourceServer s = read("""
                resource: https://mcp.example.com/mcp
                issuers:
                  - issuer: http://127.0.0.1:9000
                    jwksUri: http://127.0.0.1:9000/jwks
                    audiences: [api://warden]
                    algorithms: [RS256, ES256, PS256]
                    introspection: { clientId: warden, clientSecret: s3cret }
                  - issuer: https://login.example.com/realms/x
                scopes: [mcp:tools]
                toolScopes:
                  "admin__*": [mcp:admin]
                clockSkew: 30s
                apiKeys: { file: keys.yaml }
                """);
        assertThat(s.resource()).contains(URI.create("https://mcp.example.com/mcp"));
        assertThat(s.requiredScopes()).containsExactly("mcp:tools");
        assertThat(s.scopesForTool("admin__x")).containsExactly("mcp:admin");
        assertThat(s.metadata(URI.create("http://ignored")).authorizationServers()).containsExactly(
                URI.create("http://127.0.0.1:9000"), URI.create("https://login.example.com/realms/x"));
    }

    @Test
    void an_unknown_key_is_refused_with_the_known_ones() {
        refused("issuers: [{issuer: https://a.example, audience: x}]", "unknown key auth.issuers[0].audience; expected one of");
        refused("scope: [x]\nissuers: [{issuer: https://a.example}]", "unknown key auth.scope");
    }

    @Test
    void an_issuer_that_is_not_a_url_is_named() {
        refused("issuers: [{issuer: not a url}]", "auth.issuers[0].issuer: expected an http(s) URL");
        refused("issuers: [{issuer: ftp://a.example}]", "auth.issuers[0].issuer: expected an http(s) URL");
        refused("issuers: [{jwksUri: https://a.example/jwks}]", "auth.issuers[0].issuer: expected an http(s) URL");
    }

    @Test
    void an_algorithm_outside_the_asymmetric_ones_is_named() {
        refused("issuers: [{issuer: https://a.example, algorithms: [HS256]}]", "auth.issuers[0].algorithms: expected a list of some of");
    }

    @Test
    void introspection_without_credentials_is_named() {
        refused("issuers: [{issuer: https://a.example, introspection: {clientId: w}}]", "auth.issuers[0].introspection.clientSecret");
    }

    @Test
    void a_skew_beyond_five_minutes_or_unreadable_is_named() {
        refused("clockSkew: 6m\nissuers: [{issuer: https://a.example}]", "auth.clockSkew: expected at most 5m");
        refused("clockSkew: soon\nissuers: [{issuer: https://a.example}]", "auth.clockSkew: expected a duration");
    }

    @Test
    void a_tool_pattern_with_an_inner_star_is_named() {
        refused("toolScopes: {\"a*b\": [x]}\nissuers: [{issuer: https://a.example}]", "auth.toolScopes.a*b: expected a tool name");
    }

    @Test
    void scopes_must_be_a_list_of_names() {
        refused("scopes: mcp:tools\nissuers: [{issuer: https://a.example}]", "auth.scopes: expected a list of names");
    }

    @Test
    void a_scope_outside_rfc_6749s_grammar_is_named() {
        refused("scopes: [\"caf\u00e9\"]\nissuers: [{issuer: https://a.example}]",
                "auth.scopes[0]: \"caf\u00e9\" is not a scope (RFC 6749");
        refused("toolScopes: {admin_*: [\"a\\tb\"]}\nissuers: [{issuer: https://a.example}]",
                "auth.toolScopes.admin_*[0]: \"a\\tb\" is not a scope");
    }

    @Test
    void nothing_to_accept_is_refused() {
        refused("scopes: [x]", "auth: expected issuers, apiKeys or both");
    }

    @Test
    void a_missing_keys_file_or_variable_is_named() {
        refused("apiKeys: { file: nowhere.yaml }", "auth.apiKeys.file");
        refused("apiKeys: { env: WARDEN_API_KEYS }", "auth.apiKeys.env: the environment variable WARDEN_API_KEYS");
    }

    @Test
    void a_broken_keys_file_names_the_field_inside_it() throws Exception {
        Files.writeString(dir.resolve("keys.yaml"), "keys: [ { name: a, sha256: zz, scopes: [x] } ]\n");
        refused("apiKeys: { file: keys.yaml }", "keys[0].sha256: expected 64 hex digits");
    }

    @Test
    void a_secret_never_appears_in_a_message() {
        assertThatThrownBy(() -> read("issuers: [{issuer: https://a.example, introspection: {clientSecret: hunter2, x: 1}}]"))
                .isInstanceOf(AuthConfigException.class).message().doesNotContain("hunter2");
    }
}
