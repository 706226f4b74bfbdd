package dev.warden.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Resources;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Upstreams that list in pages, behind a gateway with several of them: every page of each is
 * read and listed in one answer, for resources and templates as for tools, and what a later
 * page listed is routed to its upstream.
 */
class GatewayPagedListsTest {

    private static final int EACH = 3;
    private Gateway gateway;
    private McpClient client;

    @BeforeEach
    void start() {
        gateway = Gateway.builder().incidents(IncidentSink.all()).upstream(paged("a")).upstream(paged("b")).build();
        client = McpClient.builder("c", "1").requestTimeout(Duration.ofSeconds(30)).connect(ViaGateway.to(gateway));
    }

    @AfterEach
    void stop() {
        client.close();
        gateway.close();
    }

    /** An upstream with {@value #EACH} tools, resources and templates, listed one per page. */
    private static Upstream paged(String name) {
        McpServer.Builder b = McpServer.builder(name, "1.0.0").incidents(IncidentSink.all()).pageSize(1);
        for (int i = 1; i <= EACH; i++) {
            String uri = "test://" + name + "/" + i;
            b.tool(ToolSpec.builder("t" + i).handler(c -> ToolResult.text("ok")).build());
            b.resource(new Resources.Resource(uri, name + i, Optional.empty(), Optional.empty(), Optional.empty(),
                    OptionalLong.empty()), (u, vars) -> List.of(new Resources.TextContents(u, Optional.empty(),
                    "content of " + u)));
            b.resourceTemplate(new Resources.Template("tmpl://" + name + "/" + i + "/{x}", name + "-tmpl" + i,
                    Optional.empty(), Optional.empty(), Optional.empty()), (u, vars) -> List.of());
        }
        McpServer server = b.build();
        return Upstream.of(name, () -> {
            InMemoryTransport.Pair pair = InMemoryTransport.pair();
            server.connect(pair.right());
            return pair.left();
        });
    }

    private static List<String> field(JsonNode result, String array, String key) {
        List<String> out = new ArrayList<>();
        result.path(array).forEach(item -> out.add(item.path(key).asString()));
        return out;
    }

    @Test
    void everyPageOfEachUpstreamsToolsIsListed() {
        assertThat(client.listTools()).hasSize(2 * EACH);
    }

    @Test
    void everyPageOfEachUpstreamsResourcesIsListedInOneAnswer() {
        JsonNode result = client.request("resources/list", Json.object());
        assertThat(field(result, "resources", "uri")).containsExactly("test://a/1", "test://a/2", "test://a/3",
                "test://b/1", "test://b/2", "test://b/3");
        assertThat(result.has("nextCursor")).isFalse();
    }

    @Test
    void everyPageOfEachUpstreamsTemplatesIsListedInOneAnswer() {
        JsonNode result = client.request("resources/templates/list", Json.object());
        assertThat(field(result, "resourceTemplates", "uriTemplate")).containsExactly("tmpl://a/1/{x}",
                "tmpl://a/2/{x}", "tmpl://a/3/{x}", "tmpl://b/1/{x}", "tmpl://b/2/{x}", "tmpl://b/3/{x}");
        assertThat(result.has("nextCursor")).isFalse();
    }

    @Test
    void aResourceListedOnALaterPageIsReadFromItsUpstream() {
        client.request("resources/list", Json.object());
        JsonNode read = client.request("resources/read", Json.object().put("uri", "test://b/3"));
        assertThat(read.at("/contents/0/text").asString()).isEqualTo("content of test://b/3");
    }
}
