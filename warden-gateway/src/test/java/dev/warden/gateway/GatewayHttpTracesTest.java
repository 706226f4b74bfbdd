package dev.warden.gateway;

import static dev.warden.gateway.TracedGateway.CLIENT_SPAN;
import static dev.warden.gateway.TracedGateway.CLIENT_TRACE;
import static dev.warden.gateway.TracedGateway.CLIENT_TRACEPARENT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.client.McpClient;
import dev.warden.client.http.StreamableHttpTransport;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.RequestOptions;
import dev.warden.gateway.config.Upstream;
import dev.warden.http.server.McpHttpHandler;
import dev.warden.http.server.McpHttpServer;
import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import dev.warden.telemetry.McpNames;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * The trace over real Streamable HTTP both sides of the gateway: a client's W3C headers parent the
 * gateway's span when its {@code _meta} names no context (and yield to it when it does), and the
 * request the gateway sends an HTTP upstream carries the gateway's own context in its headers as
 * in its {@code _meta}.
 */
class GatewayHttpTracesTest {

    private static final String OTHER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String OTHER_SPAN = "00f067aa0ba902b7";

    private final TracedGateway traced = new TracedGateway();
    /** The headers of each POST the upstream received, with its Mcp-Method. */
    private final List<HttpFields> upstreamHeard = new CopyOnWriteArrayList<>();
    private final McpServer upstream = McpServer.builder("crm", "1.0.0").incidents(IncidentSink.all())
            .tool(ToolSpec.builder("lookup").handler(c -> ToolResult.text("found")).build())
            .build();
    private Server upstreamJetty;
    private McpHttpHandler upstreamEndpoint;
    private Gateway gateway;
    private McpHttpServer gatewayHttp;
    private McpClient client;
    private volatile StreamableHttpTransport clientTransport;
    private URI upstreamUri;

    /** Both kinds of client: a session's POSTs, and 2026-07-28's stateless requests, each an exchange of its own. */
    static List<ProtocolVersion> versions() {
        return List.of(ProtocolVersion.latestSessionBased(), ProtocolVersion.latest());
    }

    private void start(ProtocolVersion version) throws Exception {
        upstreamEndpoint = McpHttpServer.builder().onSession(upstream::connect).buildHandler();
        upstreamJetty = new Server();
        ServerConnector connector = new ServerConnector(upstreamJetty);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        upstreamEndpoint.attach(connector);
        upstreamJetty.addConnector(connector);
        upstreamJetty.setHandler(new Handler.Wrapper(upstreamEndpoint.handler()) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                upstreamHeard.add(HttpFields.build(request.getHeaders()).asImmutable());
                return super.handle(request, response, callback);
            }
        });
        upstreamJetty.start();
        upstreamUri = URI.create("http://127.0.0.1:" + connector.getLocalPort() + upstreamEndpoint.path());
        upstreamEndpoint.start(upstreamUri);

        gateway = Gateway.builder().upstream(Upstream.http("crm", upstreamUri, Map.of()))
                .incidents(IncidentSink.all()).telemetry(traced.telemetry).build();
        traced.listed(gateway);
        gatewayHttp = McpHttpServer.builder().port(0).onSession(gateway::connect).boundary(gateway.boundary())
                .build().start();
        // The client's context in the headers of every POST it makes.
        client = McpClient.builder("model", "1").requestTimeout(Duration.ofSeconds(30)).protocolVersion(version)
                .connect(() -> {
                    StreamableHttpTransport t = StreamableHttpTransport.of(gatewayHttp.endpoint(),
                            Map.of("traceparent", CLIENT_TRACEPARENT, "tracestate", "vendor=fromheaders"));
                    clientTransport = t;
                    return t;
                });
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (gatewayHttp != null) {
            gatewayHttp.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (upstreamEndpoint != null) {
            upstreamEndpoint.close();
        }
        if (upstreamJetty != null) {
            upstreamJetty.stop();
        }
    }

    @ParameterizedTest
    @MethodSource("versions")
    void theClientsHeadersParentTheGatewaysSpanAndTheUpstreamHearsTheGatewaysContextInItsHeaders(ProtocolVersion version)
            throws Exception {
        start(version);
        client.callTool("lookup", Json.object());

        SpanData server = traced.only(SpanKind.SERVER, "tools/call lookup");
        assertThat(server.getTraceId()).isEqualTo(CLIENT_TRACE);
        assertThat(server.getParentSpanId()).isEqualTo(CLIENT_SPAN);
        assertThat(server.getAttributes().get(McpNames.NETWORK_TRANSPORT)).isEqualTo(McpNames.TCP);
        assertThat(server.getAttributes().get(McpNames.MCP_PROTOCOL_VERSION)).isEqualTo(version.wire());
        if (!version.stateless()) {
            // The session by its digest, never the id that lets anyone holding it into the session.
            String id = clientTransport.sessionId().orElseThrow();
            assertThat(server.getAttributes().get(McpNames.MCP_SESSION_ID)).isNotBlank().isNotEqualTo(id)
                    .doesNotContain(id);
        }
        SpanData upstreamCall = traced.only(SpanKind.CLIENT, "tools/call lookup");
        assertThat(upstreamCall.getParentSpanId()).isEqualTo(server.getSpanId());
        assertThat(upstreamCall.getAttributes().get(McpNames.NETWORK_TRANSPORT)).isEqualTo(McpNames.TCP);
        assertThat(upstreamCall.getAttributes().get(McpNames.WARDEN_UPSTREAM)).isEqualTo("crm");

        HttpFields heard = upstreamHeard.stream().filter(h -> "tools/call".equals(h.get("Mcp-Method")))
                .findFirst().orElseThrow();
        assertThat(heard.get("traceparent")).startsWith("00-" + CLIENT_TRACE + "-" + upstreamCall.getSpanId() + "-");
        assertThat(heard.get("tracestate")).isEqualTo("vendor=fromheaders");
    }

    @ParameterizedTest
    @MethodSource("versions")
    void aContextInMetaComesBeforeTheHeaders(ProtocolVersion version) throws Exception {
        start(version);
        ObjectNode params = Json.object().put("name", "lookup");
        params.putObject("arguments");
        params.putObject("_meta").put("traceparent", "00-" + OTHER_TRACE + "-" + OTHER_SPAN + "-01");
        client.requestAsync("tools/call", params, RequestOptions.ofToolCallDefaults()).get(30, TimeUnit.SECONDS);

        SpanData server = traced.only(SpanKind.SERVER, "tools/call lookup");
        assertThat(server.getTraceId()).isEqualTo(OTHER_TRACE);
        assertThat(server.getParentSpanId()).isEqualTo(OTHER_SPAN);
        SpanData upstreamCall = traced.only(SpanKind.CLIENT, "tools/call lookup");
        HttpFields heard = upstreamHeard.stream().filter(h -> "tools/call".equals(h.get("Mcp-Method")))
                .findFirst().orElseThrow();
        assertThat(heard.get("traceparent")).startsWith("00-" + OTHER_TRACE + "-" + upstreamCall.getSpanId() + "-");
    }

    /** An HTTP upstream's spans name its server as a client's do: {@code server.address}, {@code server.port}. */
    @ParameterizedTest
    @MethodSource("versions")
    void theUpstreamCallsSpanNamesTheHttpUpstreamsAddressAndPort(ProtocolVersion version) throws Exception {
        start(version);
        client.callTool("lookup", Json.object());

        SpanData upstreamCall = traced.only(SpanKind.CLIENT, "tools/call lookup");
        assertThat(upstreamCall.getAttributes().get(McpNames.SERVER_ADDRESS)).isEqualTo(upstreamUri.getHost());
        assertThat(upstreamCall.getAttributes().get(McpNames.SERVER_PORT)).isEqualTo((long) upstreamUri.getPort());
        assertThat(upstreamCall.getAttributes().get(McpNames.NETWORK_PROTOCOL_NAME)).isEqualTo(McpNames.HTTP);
    }
}
