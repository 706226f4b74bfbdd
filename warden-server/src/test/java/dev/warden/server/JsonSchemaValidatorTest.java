package dev.warden.server;

import static dev.warden.server.TestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.warden.core.error.Violation;
import dev.warden.schema.JsonSchemaValidator;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonSchemaValidatorTest {

    @Test
    void patternsRunOnALinearTimeEngine() {
        JsonSchemaValidator validator = JsonSchemaValidator.compile(json(
                "{\"type\":\"object\",\"properties\":{\"s\":{\"type\":\"string\",\"pattern\":\"^(a+)+$\"}}}"));
        String evil = "{\"s\":\"" + "a".repeat(50_000) + "!\"}";
        // With java.util.regex this input takes longer than the age of the universe; the guard only
        // catches a hang, it does not measure speed.
        List<Violation> violations = assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> validator.validate(json(evil)));
        assertThat(violations).singleElement().satisfies(v -> assertThat(v.pointer()).isEqualTo("/s"));
    }

    @Test
    void hugeValuesForRegexBackedFormatsAreViolationsNotStackOverflows() {
        // The library checks "uri-template" (and e-mail, host names, …) with java.util.regex, which
        // recursed once per character and overflowed the stack at about 2,000 characters.
        JsonSchemaValidator validator = JsonSchemaValidator.compile(json("""
                {"type":"object","properties":{
                  "t":{"type":"string","format":"uri-template"},
                  "e":{"type":"string","format":"email"},
                  "h":{"type":"string","format":"hostname"}}}"""));
        String longValue = "a".repeat(100_000);
        List<Violation> violations = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> validator.validate(
                json("{\"t\":\"" + longValue + "\",\"e\":\"" + longValue + "@x.com\",\"h\":\"" + longValue + "\"}")));
        assertThat(violations).extracting(Violation::pointer).containsExactlyInAnyOrder("/t", "/e", "/h");
    }

    @Test
    void ordinaryFormatValuesStillValidate() {
        JsonSchemaValidator validator = JsonSchemaValidator.compile(json(
                "{\"type\":\"object\",\"properties\":{\"e\":{\"type\":\"string\",\"format\":\"email\"}}}"));
        assertThat(validator.validate(json("{\"e\":\"ada@example.com\"}"))).isEmpty();
        assertThat(validator.validate(json("{\"e\":\"not-an-email\"}"))).extracting(Violation::line)
                .containsExactly("/e: must be an email address");
    }

    @Test
    void patternsTheLinearEngineCannotRunAreRejectedWhenTheToolIsBuilt() {
        assertThatThrownBy(() -> ToolSpec.builder("t").inputSchema(
                        "{\"type\":\"object\",\"properties\":{\"s\":{\"type\":\"string\",\"pattern\":\"^(?=a)b\"}}}")
                .handler(call -> ToolResult.text("x")).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("inputSchema of tool t")
                .hasMessageContaining("(?=a)");
    }

    @Test
    void keysTheSchemaDoesNotDeclareAreMaskedInPointers() {
        JsonSchemaValidator validator = JsonSchemaValidator.compile(json(
                "{\"type\":\"object\",\"properties\":{\"m\":{\"type\":\"object\","
                        + "\"additionalProperties\":{\"type\":\"integer\"}}}}"));
        List<Violation> violations = validator.validate(json("{\"m\":{\"attacker/chosen~key\":\"x\"}}"));
        assertThat(violations).extracting(Violation::line).containsExactly("/m/*: must be an integer");
    }

    @Test
    void remoteReferencesAreNeverFetched() throws Exception {
        java.util.concurrent.atomic.AtomicInteger hits = new java.util.concurrent.atomic.AtomicInteger();
        com.sun.net.httpserver.HttpServer http = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/", exchange -> {
            hits.incrementAndGet();
            byte[] body = "{\"type\":\"string\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        http.start();
        try {
            String schema = "{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"http://127.0.0.1:"
                    + http.getAddress().getPort() + "/schema.json\"}}}";
            try {
                JsonSchemaValidator.compile(json(schema)).validate(json("{\"a\":1}"));
            } catch (RuntimeException expected) {
                // refusing to resolve the reference is fine; fetching it is not
            }
            assertThat(hits.get()).isZero();
        } finally {
            http.stop(0);
        }
    }

    @Test
    void messagesComeFromTheSchemaNotTheValue() {
        JsonSchemaValidator validator = JsonSchemaValidator.compile(json("""
                {"type":"object","properties":{
                  "n":{"type":"integer"},
                  "c":{"const":"fixed"},
                  "e":{"enum":[1,2]},
                  "s":{"type":"string","minLength":2,"format":"uuid"}},
                 "required":["r"]}"""));
        List<String> lines = validator.validate(json("{\"n\":\"VALUE1\",\"c\":\"VALUE2\",\"e\":\"VALUE3\","
                + "\"s\":\"V\"}")).stream().map(Violation::line).toList();
        assertThat(lines).contains("/n: must be an integer", "/c: must be \"fixed\"", "/e: must be one of: 1, 2",
                "/s: must be at least 2 characters long", "/s: must be a UUID", "/r: is required");
        assertThat(String.join("\n", lines)).doesNotContain("VALUE");
    }

    @Test
    void aToolWhoseSchemaIsNotAnObjectTypeFailsFast() {
        assertThatThrownBy(() -> ToolSpec.builder("t").inputSchema("{\"type\":\"array\"}")
                .handler(call -> ToolResult.text("x")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"type\": \"object\"");
    }

    @Test
    void badToolNamesFailFastNamingTheName() {
        assertThatThrownBy(() -> ToolSpec.builder("has space")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has space");
    }

    @Test
    void registeringATwiceNamedToolFails() {
        ToolSpec spec = ToolSpec.builder("t").handler(call -> ToolResult.text("x")).build();
        assertThatThrownBy(() -> McpServer.builder("s", "1").tool(spec).tool(spec))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"t\"");
    }
}
