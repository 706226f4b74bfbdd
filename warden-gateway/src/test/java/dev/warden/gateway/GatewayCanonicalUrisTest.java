package dev.warden.gateway;

import static dev.warden.gateway.AccessFixture.failure;
import static dev.warden.gateway.AccessFixture.params;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Completion;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.mcp.Resources;
import dev.warden.core.transport.InMemoryTransport;
import dev.warden.gateway.config.Access;
import dev.warden.gateway.config.Upstream;
import dev.warden.server.McpServer;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * Access rules and routing decide on the resource URI the upstream will read. The upstream here
 * resolves dot segments (and {@code %2e}) as server-everything's URL parser does, so
 * {@code demo://resource/dynamic/../static/document/secret} is the hidden
 * {@code demo://resource/static/document/secret} to it. A URI not in canonical form is refused
 * (-32602) before any rule sees it, so what a rule allowed is what is read.
 */
class GatewayCanonicalUrisTest {

    private static final String SECRET = "demo://resource/static/document/secret";
    private static final String ONLY_DYNAMIC = "mcp.kind == 'resource' && mcp.uri.startsWith('demo://resource/dynamic/')";

    private final List<AutoCloseable> open = new ArrayList<>();
    /** The URIs the upstream was asked to read. */
    private final List<String> read = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open.reversed()) {
            c.close();
        }
    }

    @Test
    void aDotSegmentPastTheRuleIsRefusedAsInvalidParamsNotRead() {
        McpClient c = client(Optional.of(Access.of(ONLY_DYNAMIC)), "demo");
        assertThat(failure(() -> c.request("resources/read",
                params("uri", "demo://resource/dynamic/../static/document/secret"))))
                .startsWith("-32602 Invalid params: uri: ").contains("'..'");
        assertThat(read).isEmpty();
    }

    @Test
    void percentEncodedDotsAreRefusedAsTheDotsTheyAre() {
        McpClient c = client(Optional.of(Access.of(ONLY_DYNAMIC)), "demo");
        for (String uri : List.of("demo://resource/dynamic/%2e%2e/static/document/secret",
                "demo://resource/dynamic/%2E%2E/static/document/secret", "demo://resource/dynamic/.%2e/static/document/secret")) {
            assertThat(failure(() -> c.request("resources/read", params("uri", uri))))
                    .startsWith("-32602 Invalid params: uri: ");
        }
        assertThat(read).isEmpty();
    }

    @Test
    void aCanonicalUriTheRuleAllowsIsReadAsSent() {
        McpClient c = client(Optional.of(Access.of(ONLY_DYNAMIC)), "demo");
        assertThat(c.request("resources/read", params("uri", "demo://resource/dynamic/a/b/c/d")).toString())
                .contains("dynamic text");
        assertThat(read).containsExactly("demo://resource/dynamic/a/b/c/d");
    }

    @Test
    void subscribingPastTheRuleIsRefused() {
        McpClient c = client(Optional.of(Access.of(ONLY_DYNAMIC)), "demo");
        assertThat(failure(() -> c.request("resources/subscribe",
                params("uri", "demo://resource/dynamic/../static/document/secret"))))
                .startsWith("-32602 Invalid params: uri: ");
    }

    @Test
    void completingAResourcePastTheRuleIsRefused() {
        McpClient c = client(Optional.of(Access.of(ONLY_DYNAMIC)), "demo");
        ObjectNode p = Json.object();
        p.putObject("ref").put("type", "ref/resource").put("uri", "demo://resource/dynamic/../static/document/secret");
        p.putObject("argument").put("name", "a").put("value", "");
        assertThat(failure(() -> c.request("completion/complete", p))).startsWith("-32602 Invalid params: uri: ");
    }

    @Test
    void routingAmongSeveralUpstreamsDecidesOnCanonicalUrisOnly() {
        McpClient c = client(Optional.empty(), "demo", "other");
        c.request("resources/templates/list", Json.object());
        assertThat(failure(() -> c.request("resources/read",
                params("uri", "demo://resource/dynamic/../static/document/secret")))).startsWith("-32602 Invalid params: uri: ");
        assertThat(read).isEmpty();
    }

    @Test
    void userinfoBeforeAnAllowedHostDoesNotPassItsRule() {
        McpClient c = client(Optional.of(Access.of(
                "mcp.kind == 'resource' && mcp.uri.startsWith('http://allowed.example')")), "demo");
        assertThat(c.request("resources/read", params("uri", "http://allowed.example/")).toString())
                .contains("web text");

        assertThat(failure(() -> c.request("resources/read", params("uri", "http://allowed.example@evil/"))))
                .startsWith("-32602 Invalid params: uri: ");
        assertThat(read).containsExactly("http://allowed.example/");
    }

    @Test
    void withOneUpstreamAndNoRulesNothingIsDecidedAndTheUriPassesAsSent() {
        McpClient c = client(Optional.empty(), "demo");
        assertThat(c.request("resources/read", params("uri", "demo://resource/dynamic/./x/y/z")).toString())
                .contains("dynamic text");
        assertThat(read).containsExactly("demo://resource/dynamic/./x/y/z");
    }

    private McpClient client(Optional<Access> access, String... upstreams) {
        Gateway.Builder b = Gateway.builder().incidents(IncidentSink.all());
        for (String name : upstreams) {
            McpServer server = upstream();
            b.upstream(Upstream.of(name, () -> {
                InMemoryTransport.Pair pair = InMemoryTransport.pair();
                server.connect(pair.right());
                return pair.left();
            }));
        }
        access.ifPresent(b::access);
        Gateway gateway = b.build();
        open.add(gateway);
        McpClient client = McpClient.builder("c", "1").requestTimeout(Duration.ofSeconds(30))
                .protocolVersion(ProtocolVersion.latestSessionBased()).connect(ViaGateway.to(gateway));
        open.add(client);
        return client;
    }

    /** Reads as a WHATWG URL parser would: {@code %2e} is a dot, dot segments are resolved. */
    private McpServer upstream() {
        return McpServer.builder("demo", "1.0.0").incidents(IncidentSink.all()).resourceSubscriptions(true)
                .resource(new Resources.Resource(SECRET, "secret", Optional.empty(), Optional.empty(),
                        Optional.empty(), OptionalLong.empty()), (uri, vars) -> List.of(text(uri, "the secret")))
                .resourceTemplate(new Resources.Template("demo://resource/dynamic/{a}/{b}/{c}/{d}", "dynamic",
                        Optional.empty(), Optional.empty(), Optional.empty()), (uri, vars) -> {
                            read.add(uri);
                            return List.of(text(uri, resolved(uri).equals(SECRET) ? "the secret" : "dynamic text"));
                        })
                .resourceTemplate(new Resources.Template("http://{authority}/", "web", Optional.empty(),
                        Optional.empty(), Optional.empty()), (uri, vars) -> {
                            read.add(uri);
                            return List.of(text(uri, "web text"));
                        })
                .completion(p -> new Completion.Values(List.of(resolved(p.ref().path("uri").asString(""))
                        .equals(SECRET) ? "secret-argument" : "x"), OptionalInt.empty(), false))
                .build();
    }

    private static String resolved(String uri) {
        return URI.create(uri.replace("%2e", ".").replace("%2E", ".")).normalize().toString();
    }

    private static Resources.Contents text(String uri, String text) {
        return new Resources.TextContents(uri, Optional.of("text/plain"), text);
    }
}
