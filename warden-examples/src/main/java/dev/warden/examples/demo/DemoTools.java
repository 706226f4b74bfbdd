package dev.warden.examples.demo;

import dev.warden.core.error.RateLimitedFailure;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.Tools;
import dev.warden.server.auth.CredentialVerifier;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import tools.jackson.databind.node.ObjectNode;

/** The demo's tools, one per failure kind. */
final class DemoTools {

    /**
     * A tool that changes state only by adding (a user, a report): not read-only, and not
     * destructive, which MCP assumes of a tool that does not say otherwise.
     */
    private static final Tools.Annotations ADDS_ONLY = new Tools.Annotations(Optional.empty(), Optional.of(false),
            Optional.of(false), Optional.of(false), Optional.of(false));

    private DemoTools() {
    }

    /** Rich input schema (VALIDATION_ERROR) and a unique email in a real database (CONFLICT). */
    static ToolSpec createUser(UserDirectory directory) {
        return ToolSpec.builder("create_user")
                .title("Create user")
                .annotations(ADDS_ONLY)
                .description("Creates a user. Emails are unique: ada@example.com already exists.")
                .inputSchema("""
                        {
                          "type": "object",
                          "properties": {
                            "name": {"type": "string", "minLength": 1, "maxLength": 100},
                            "email": {"type": "string", "format": "email"},
                            "role": {"type": "string", "enum": ["viewer", "editor", "admin"]},
                            "age": {"type": "integer", "minimum": 13, "maximum": 150},
                            "address": {
                              "type": "object",
                              "properties": {
                                "street": {"type": "string"},
                                "city": {"type": "string", "minLength": 1},
                                "postalCode": {"type": "string", "pattern": "^[0-9]{5}$"},
                                "country": {"type": "string", "pattern": "^[A-Z]{2}$"}
                              },
                              "required": ["city", "country"],
                              "additionalProperties": false
                            },
                            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5, "uniqueItems": true}
                          },
                          "required": ["name", "email", "role"],
                          "additionalProperties": false
                        }""")
                .outputSchema("""
                        {
                          "type": "object",
                          "properties": {
                            "id": {"type": "string", "format": "uuid"},
                            "name": {"type": "string"},
                            "email": {"type": "string"},
                            "role": {"type": "string"}
                          },
                          "required": ["id", "name", "email", "role"]
                        }""")
                .handler(call -> {
                    ObjectNode args = call.arguments();
                    Integer age = args.has("age") ? args.get("age").intValue() : null;
                    UUID id = directory.create(args.get("name").stringValue(), args.get("email").stringValue(),
                            args.get("role").stringValue(), age);
                    ObjectNode user = Json.object();
                    user.put("id", id.toString());
                    user.put("name", args.get("name").stringValue());
                    user.put("email", args.get("email").stringValue());
                    user.put("role", args.get("role").stringValue());
                    return ToolResult.structured(user);
                })
                .build();
    }

    /** NOT_FOUND and PERMISSION_DENIED. */
    static ToolSpec fetchDocument(DocumentLibrary documents) {
        return ToolSpec.builder("fetch_document")
                .title("Fetch document")
                .description("Returns a document by id. doc-1 and doc-3 are public, doc-2 is confidential.")
                .annotations(Tools.Annotations.readOnly())
                .inputSchema("""
                        {"type": "object",
                         "properties": {"id": {"type": "string", "pattern": "^doc-[0-9]{1,6}$"}},
                         "required": ["id"], "additionalProperties": false}""")
                .handler(call -> ToolResult.text(documents.read(call.string("id").orElseThrow())))
                .build();
    }

    /** RATE_LIMITED with retryAfterMs: two calls a minute. */
    static ToolSpec searchCatalog(FixedWindowLimiter limiter) {
        return ToolSpec.builder("search_catalog")
                .title("Search catalog")
                .description("Searches the product catalog. Limited to 2 calls per minute.")
                .annotations(Tools.Annotations.readOnly())
                .inputSchema("""
                        {"type": "object", "properties": {"query": {"type": "string", "minLength": 1}},
                         "required": ["query"]}""")
                .handler(call -> {
                    Optional<Duration> wait = limiter.tryAcquire();
                    if (wait.isPresent()) {
                        return ToolResult.failed(new RateLimitedFailure(
                                "Search is limited to 2 calls per minute.", wait.get()));
                    }
                    return ToolResult.text("3 products match: Lamp, Desk, Chair.");
                })
                .build();
    }

    /** PERMISSION_DENIED that does not reveal whether the account exists. */
    static ToolSpec login(UserDirectory directory) {
        CredentialVerifier verifier = CredentialVerifier.of(directory::passwordHash, UserDirectory.DEMO_ITERATIONS);
        return ToolSpec.builder("login")
                .title("Log in")
                .annotations(Tools.Annotations.readOnly())
                .description("Checks an email and password. ada@example.com / correct horse battery staple.")
                .inputSchema("""
                        {"type": "object",
                         "properties": {"email": {"type": "string"}, "password": {"type": "string"}},
                         "required": ["email", "password"]}""")
                .handler(call -> {
                    verifier.check(call.string("email").orElseThrow(),
                            call.string("password").orElseThrow().toCharArray());
                    return ToolResult.text("Logged in.");
                })
                .build();
    }

    /** A bug: the exception names a file path, an internal host and a credentialed URL. Only a ref comes out. */
    static ToolSpec generateReport() {
        return ToolSpec.builder("generate_report")
                .title("Generate report")
                .annotations(ADDS_ONLY)
                .description("Generates the quarterly report. Always fails with an unexpected error.")
                .inputSchema("""
                        {"type": "object", "properties": {"quarter": {"type": "string", "enum": ["Q1", "Q2", "Q3", "Q4"]}}}""")
                .handler(call -> {
                    throw new UncheckedIOException("report writer crashed", new IOException(
                            "/var/lib/warden/reports/2026-Q3.csv: Permission denied (uploading to "
                                    + "https://svc:hunter2@reports.corp.internal:8443/upload)"));
                })
                .build();
    }

    /** Slow, reports progress, and stops when cancelled. */
    static ToolSpec longTask() {
        return ToolSpec.builder("long_task")
                .title("Long task")
                .annotations(Tools.Annotations.readOnly())
                .description("Works through steps, reporting progress; honours cancellation.")
                .inputSchema("""
                        {"type": "object", "properties": {
                           "steps": {"type": "integer", "minimum": 1, "maximum": 1000},
                           "stepMillis": {"type": "integer", "minimum": 1, "maximum": 60000}}}""")
                .handler(call -> {
                    int steps = call.arguments().path("steps").asInt(10);
                    int stepMillis = call.arguments().path("stepMillis").asInt(500);
                    for (int i = 1; i <= steps; i++) {
                        Thread.sleep(stepMillis);
                        call.context().checkCancelled();
                        call.context().progress(i, steps, "step " + i + " of " + steps);
                    }
                    call.context().log(Logging.Level.INFO, "long_task finished");
                    return ToolResult.text("Finished " + steps + " steps.");
                })
                .build();
    }
}
