package dev.warden.adapter.mcpsdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.error.NotFoundFailure;
import dev.warden.core.incident.Incident;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * Each of the SDK's twenty specification records, wrapped: what its handler throws (or signals)
 * becomes Warden's answer, recorded under the ref the answer carries; what it returns is unchanged.
 */
// The records' constructors that 2.0 and 2.1 both have (2.1 deprecates them for builders 2.0 lacks).
@SuppressWarnings("deprecation")
class WardenGuardTest {

    private final List<Incident> incidents = new CopyOnWriteArrayList<>();
    private final WardenGuard guard = WardenGuard.builder().incidents(incidents::add).build();

    private static final McpSchema.Tool TOOL = McpSchema.Tool.builder().name("refund")
            .inputSchema(Map.of("type", "object")).build();
    private static final McpSchema.CallToolRequest CALL = new McpSchema.CallToolRequest("refund", Map.of());
    private static final McpSchema.Resource RESOURCE = new McpSchema.Resource("file:///a", "a", null, null, null,
            null, null, null);
    private static final McpSchema.ResourceTemplate TEMPLATE = new McpSchema.ResourceTemplate("file:///{p}", "t",
            null, null, null, null);
    private static final McpSchema.ReadResourceRequest READ = new McpSchema.ReadResourceRequest("file:///a");
    private static final McpSchema.Prompt PROMPT = new McpSchema.Prompt("p", "a prompt", List.of());
    private static final McpSchema.GetPromptRequest GET = new McpSchema.GetPromptRequest("p", Map.of());
    private static final McpSchema.CompleteReference REF = new McpSchema.PromptReference("p");
    private static final McpSchema.CompleteRequest COMPLETE = new McpSchema.CompleteRequest(REF,
            new McpSchema.CompleteRequest.CompleteArgument("a", "b"));

    private static RuntimeException secret() {
        return new IllegalStateException("jdbc:postgresql://db.internal:5432/orders password=hunter2",
                new java.io.IOException("/srv/app/secret.key"));
    }

    @Test
    void everyToolSpecificationAnswersAThrowWithAnIsErrorResultCarryingACodeAndARef() {
        List<McpSchema.CallToolResult> results = List.of(
                guard.wrapOne(new McpServerFeatures.SyncToolSpecification(TOOL, (x, r) -> { throw secret(); }))
                        .callHandler().apply(null, CALL),
                guard.wrapOne(new McpServerFeatures.AsyncToolSpecification(TOOL, (x, r) -> Mono.error(secret())))
                        .callHandler().apply(null, CALL).block(),
                guard.wrapOne(new McpServerFeatures.AsyncToolSpecification(TOOL, (x, r) -> { throw secret(); }))
                        .callHandler().apply(null, CALL).block(),
                guard.wrapOne(new McpStatelessServerFeatures.SyncToolSpecification(TOOL, (x, r) -> { throw secret(); }))
                        .callHandler().apply(null, CALL),
                guard.wrapOne(new McpStatelessServerFeatures.AsyncToolSpecification(TOOL,
                        (x, r) -> Mono.error(secret()))).callHandler().apply(null, CALL).block());
        assertThat(results).hasSize(5).allSatisfy(result -> {
            assertThat(result.isError()).isTrue();
            String text = ((McpSchema.TextContent) result.content().get(0)).text();
            assertThat(text).contains("\"code\":\"INTERNAL_ERROR\"", "\"ref\":\"ref_")
                    .doesNotContain("hunter2", "db.internal", "/srv/app", "Exception");
            @SuppressWarnings("unchecked")
            Map<String, Object> error = (Map<String, Object>) ((Map<String, Object>) result.structuredContent())
                    .get("error");
            assertThat(error).containsEntry("code", "INTERNAL_ERROR").containsKey("ref");
        });
        assertThat(incidents).hasSize(5).allSatisfy(i -> {
            assertThat(i.tool()).contains("refund");
            assertThat(i.chain().toString()).contains("hunter2", "/srv/app/secret.key");
        });
    }

    @Test
    void everyOtherSpecificationAnswersWithWardensJsonRpcErrorWhichTheSdkPassesThrough() {
        List<Function<WardenGuard, Object>> calls = List.of(
                g -> g.wrapOne(new McpServerFeatures.SyncResourceSpecification(RESOURCE, (x, r) -> { throw secret(); }))
                        .readHandler().apply(null, READ),
                g -> g.wrapOne(new McpServerFeatures.AsyncResourceSpecification(RESOURCE,
                        (x, r) -> Mono.error(secret()))).readHandler().apply(null, READ).block(),
                g -> g.wrapOne(new McpServerFeatures.SyncResourceTemplateSpecification(TEMPLATE,
                        (x, r) -> { throw secret(); })).readHandler().apply(null, READ),
                g -> g.wrapOne(new McpServerFeatures.AsyncResourceTemplateSpecification(TEMPLATE,
                        (x, r) -> { throw secret(); })).readHandler().apply(null, READ).block(),
                g -> g.wrapOne(new McpServerFeatures.SyncPromptSpecification(PROMPT, (x, r) -> { throw secret(); }))
                        .promptHandler().apply(null, GET),
                g -> g.wrapOne(new McpServerFeatures.AsyncPromptSpecification(PROMPT, (x, r) -> Mono.error(secret())))
                        .promptHandler().apply(null, GET).block(),
                g -> g.wrapOne(new McpServerFeatures.SyncCompletionSpecification(REF, (x, r) -> { throw secret(); }))
                        .completionHandler().apply(null, COMPLETE),
                g -> g.wrapOne(new McpServerFeatures.AsyncCompletionSpecification(REF,
                        (x, r) -> Mono.error(secret()))).completionHandler().apply(null, COMPLETE).block(),
                g -> g.wrapOne(new McpStatelessServerFeatures.SyncResourceSpecification(RESOURCE,
                        (x, r) -> { throw secret(); })).readHandler().apply(null, READ),
                g -> g.wrapOne(new McpStatelessServerFeatures.AsyncResourceSpecification(RESOURCE,
                        (x, r) -> Mono.error(secret()))).readHandler().apply(null, READ).block(),
                g -> g.wrapOne(new McpStatelessServerFeatures.SyncResourceTemplateSpecification(TEMPLATE,
                        (x, r) -> { throw secret(); })).readHandler().apply(null, READ),
                g -> g.wrapOne(new McpStatelessServerFeatures.AsyncResourceTemplateSpecification(TEMPLATE,
                        (x, r) -> Mono.error(secret()))).readHandler().apply(null, READ).block(),
                g -> g.wrapOne(new McpStatelessServerFeatures.SyncPromptSpecification(PROMPT,
                        (x, r) -> { throw secret(); })).promptHandler().apply(null, GET),
                g -> g.wrapOne(new McpStatelessServerFeatures.AsyncPromptSpecification(PROMPT,
                        (x, r) -> Mono.error(secret()))).promptHandler().apply(null, GET).block(),
                g -> g.wrapOne(new McpStatelessServerFeatures.SyncCompletionSpecification(REF,
                        (x, r) -> { throw secret(); })).completionHandler().apply(null, COMPLETE),
                g -> g.wrapOne(new McpStatelessServerFeatures.AsyncCompletionSpecification(REF,
                        (x, r) -> Mono.error(secret()))).completionHandler().apply(null, COMPLETE).block());
        for (Function<WardenGuard, Object> call : calls) {
            assertThatThrownBy(() -> call.apply(guard)).isInstanceOfSatisfying(McpError.class, e -> {
                McpSchema.JSONRPCResponse.JSONRPCError error = e.getJsonRpcError();
                assertThat(error.code()).isEqualTo(-32603);
                assertThat(error.message()).isEqualTo("An internal error occurred.");
                assertThat(error.data()).asString().contains("code=INTERNAL_ERROR", "ref=ref_")
                        .doesNotContain("hunter2");
            });
        }
        assertThat(incidents).hasSize(16);
    }

    @Test
    void aSqlStateATrustedFailureAndTheSdksOwnErrorCodesKeepTheirMeaningNotTheirText() {
        var conflict = guard.wrapOne(new McpServerFeatures.SyncToolSpecification(TOOL, (x, r) -> {
            throw new RuntimeException(new SQLException("duplicate key value violates \"orders_pkey\"", "23505"));
        })).callHandler().apply(null, CALL);
        assertThat(((McpSchema.TextContent) conflict.content().get(0)).text())
                .contains("CONFLICT", "A record with the same unique value already exists.").doesNotContain("orders_pkey");

        var notFound = guard.wrapOne(new McpServerFeatures.SyncResourceSpecification(RESOURCE,
                (x, r) -> { throw new NotFoundFailure("No report for that month."); }));
        assertThatThrownBy(() -> notFound.readHandler().apply(null, READ)).isInstanceOfSatisfying(McpError.class,
                e -> {
                    assertThat(e.getJsonRpcError().code()).isEqualTo(-32002); // MCP's resource not found
                    assertThat(e.getJsonRpcError().message()).isEqualTo("No report for that month.");
                });

        var sdkError = guard.wrapOne(new McpServerFeatures.SyncPromptSpecification(PROMPT, (x, r) -> {
            throw new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(-32602, "bad id: /srv/app/x.db", null));
        }));
        assertThatThrownBy(() -> sdkError.promptHandler().apply(null, GET)).isInstanceOfSatisfying(McpError.class,
                e -> {
                    assertThat(e.getJsonRpcError().code()).isEqualTo(-32602);
                    assertThat(e.getJsonRpcError().message()).isEqualTo("Invalid params");
                    assertThat(e.getJsonRpcError().data()).asString().contains("VALIDATION_ERROR")
                            .doesNotContain("/srv/app");
                });
    }

    @Test
    void whatAHandlerReturnsAndTheDefinitionStayAsTheyAre() {
        McpSchema.CallToolResult ok = new McpSchema.CallToolResult(
                List.of(new McpSchema.TextContent(null, "refunded", null)), false, null, null);
        var wrapped = guard.wrap(List.of(new McpServerFeatures.SyncToolSpecification(TOOL, (x, r) -> ok)));
        assertThat(wrapped.get(0).tool()).isSameAs(TOOL);
        assertThat(wrapped.get(0).callHandler().apply(null, CALL)).isSameAs(ok);
        assertThat(incidents).isEmpty();
    }

    @Test
    void aHandlerWrappedTwiceIsRecordedOnceAndKeepsWardensAnswer() {
        var twice = guard.wrapOne(guard.wrapOne(new McpServerFeatures.SyncPromptSpecification(PROMPT,
                (x, r) -> { throw secret(); })));
        assertThatThrownBy(() -> twice.promptHandler().apply(null, GET)).isInstanceOfSatisfying(McpError.class,
                e -> assertThat(e.getJsonRpcError().message()).isEqualTo("An internal error occurred."));
        assertThat(incidents).hasSize(1);
    }

    @Test
    void aUrlElicitationRequestIsTheServersAnswerAndPassesAsItStands() {
        McpError elicitation = new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(
                McpSchema.ErrorCodes.URL_ELICITATION_REQUIRED, "URL elicitation required", Map.of("elicitations", List.of())));
        var tool = guard.wrapOne(new McpServerFeatures.SyncToolSpecification(TOOL, (x, r) -> { throw elicitation; }));
        assertThatThrownBy(() -> tool.callHandler().apply(null, CALL)).isSameAs(elicitation);
        var async = guard.wrapOne(new McpServerFeatures.AsyncToolSpecification(TOOL, (x, r) -> Mono.error(elicitation)));
        assertThatThrownBy(() -> async.callHandler().apply(null, CALL).block()).isSameAs(elicitation);
        var prompt = guard.wrapOne(new McpServerFeatures.SyncPromptSpecification(PROMPT, (x, r) -> { throw elicitation; }));
        assertThatThrownBy(() -> prompt.promptHandler().apply(null, GET)).isSameAs(elicitation);
        assertThat(incidents).isEmpty();
    }

    @Test
    void aSyncToolThatReturnsNullIsAFailureWithARef() {
        var nothing = guard.wrapOne(new McpServerFeatures.SyncToolSpecification(TOOL, (x, r) -> null));
        assertThat(nothing.callHandler().apply(null, CALL).isError()).isTrue();
        assertThat(incidents).singleElement().satisfies(i -> assertThat(i.chain().toString()).contains("null"));
    }

    @Test
    void everyAsyncHandlerThatCompletesEmptyOrReturnsNoMonoIsAFailureWithARefNotSilence() {
        // The SDK maps a handler's value to the answer: an empty Mono would leave the request unanswered.
        List<McpSchema.CallToolResult> results = List.of(
                guard.wrapOne(new McpServerFeatures.AsyncToolSpecification(TOOL, (x, r) -> Mono.empty()))
                        .callHandler().apply(null, CALL).block(),
                guard.wrapOne(new McpServerFeatures.AsyncToolSpecification(TOOL, (x, r) -> null))
                        .callHandler().apply(null, CALL).block(),
                guard.wrapOne(new McpStatelessServerFeatures.AsyncToolSpecification(TOOL, (x, r) -> Mono.empty()))
                        .callHandler().apply(null, CALL).block());
        assertThat(results).hasSize(3).allSatisfy(result -> {
            assertThat(result.isError()).isTrue();
            assertThat(((McpSchema.TextContent) result.content().get(0)).text())
                    .contains("\"code\":\"INTERNAL_ERROR\"", "\"ref\":\"ref_");
        });
        List<Function<WardenGuard, Object>> calls = List.of(
                g -> g.wrapOne(new McpServerFeatures.AsyncResourceSpecification(RESOURCE, (x, r) -> Mono.empty()))
                        .readHandler().apply(null, READ).block(),
                g -> g.wrapOne(new McpServerFeatures.AsyncResourceTemplateSpecification(TEMPLATE,
                        (x, r) -> Mono.empty())).readHandler().apply(null, READ).block(),
                g -> g.wrapOne(new McpServerFeatures.AsyncPromptSpecification(PROMPT, (x, r) -> Mono.empty()))
                        .promptHandler().apply(null, GET).block(),
                g -> g.wrapOne(new McpServerFeatures.AsyncCompletionSpecification(REF, (x, r) -> Mono.empty()))
                        .completionHandler().apply(null, COMPLETE).block(),
                g -> g.wrapOne(new McpStatelessServerFeatures.AsyncResourceSpecification(RESOURCE,
                        (x, r) -> Mono.empty())).readHandler().apply(null, READ).block(),
                g -> g.wrapOne(new McpStatelessServerFeatures.AsyncResourceTemplateSpecification(TEMPLATE,
                        (x, r) -> Mono.empty())).readHandler().apply(null, READ).block(),
                g -> g.wrapOne(new McpStatelessServerFeatures.AsyncPromptSpecification(PROMPT,
                        (x, r) -> Mono.empty())).promptHandler().apply(null, GET).block(),
                g -> g.wrapOne(new McpStatelessServerFeatures.AsyncCompletionSpecification(REF,
                        (x, r) -> Mono.empty())).completionHandler().apply(null, COMPLETE).block());
        for (Function<WardenGuard, Object> call : calls) {
            assertThatThrownBy(() -> call.apply(guard)).isInstanceOfSatisfying(McpError.class, e -> {
                assertThat(e.getJsonRpcError().code()).isEqualTo(-32603);
                assertThat(e.getJsonRpcError().data()).asString().contains("code=INTERNAL_ERROR", "ref=ref_");
            });
        }
        assertThat(incidents).hasSize(11).filteredOn(i -> i.chain().toString().contains("answered nothing"))
                .hasSize(10);
    }

    @Test
    void anythingButASpecificationIsRefused() {
        assertThatThrownBy(() -> guard.wrapOne("a tool")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.String");
    }
}
