package dev.warden.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.core.sanitize.Policy;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GatewayConfigTest {

    private static final Map<String, String> ENV = Map.of("CRM_TOKEN", "s3cret-token");

    private static GatewayConfig parse(String text) {
        return GatewayConfig.parse(text, ENV::get);
    }

    @Test
    void wardenYamlDescribesUpstreamsAndTheirSettings() {
        GatewayConfig cfg = parse("""
                http: { port: 8080, allowedHosts: [gw.example.com] }
                namespacing: { separator: "." }
                upstreams:
                  everything:
                    command: [npx, -y, "@modelcontextprotocol/server-everything"]
                    timeout: 30s
                    toolTimeouts: { trigger-long-running-operation: 5m }
                    tools: { deny: [get-env] }
                  crm:
                    url: https://crm.example.com/mcp
                    headers: { Authorization: "Bearer ${CRM_TOKEN}" }
                    policy: strict
                    redactCredentialsInResults: false
                """);
        assertThat(cfg.upstreams()).extracting(Upstream::name).containsExactly("everything", "crm");
        Upstream everything = cfg.upstreams().get(0);
        assertThat(everything.timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(everything.timeoutFor("trigger-long-running-operation")).isEqualTo(Duration.ofMinutes(5));
        assertThat(everything.exposes("get-env")).isFalse();
        assertThat(everything.exposes("echo")).isTrue();
        Upstream crm = cfg.upstreams().get(1);
        assertThat(crm.policy()).isEqualTo(Policy.STRICT);
        assertThat(crm.redactSuccessfulResults()).isFalse();
        assertThat(cfg.http()).hasValueSatisfying(h -> {
            assertThat(h.port()).isEqualTo(8080);
            assertThat(h.host()).isEqualTo("127.0.0.1");
            assertThat(h.allowedHosts()).containsExactly("gw.example.com");
        });
        assertThat(cfg.separator()).isEqualTo(".");
    }

    @Test
    void theClientsMcpServersJsonWrapsEveryServerInIt() {
        GatewayConfig cfg = parse("""
                {"mcpServers": {
                  "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
                  "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": {"A": "1"}},
                  "off": {"command": "x", "disabled": true}
                }}""");
        assertThat(cfg.upstreams()).extracting(Upstream::name).containsExactly("filesystem", "memory");
        assertThat(cfg.http()).isEmpty();
    }

    @Test
    void anHttpUpstreamMayAuthorizeWithOAuth() {
        Upstream u = parse("""
                upstreams:
                  crm:
                    url: https://crm.example.com/mcp
                    oauth: { clientId: gateway, clientSecret: "${CRM_TOKEN}" }
                """).upstreams().get(0);
        assertThat(u.name()).isEqualTo("crm");
        assertThatThrownBy(() -> parse("upstreams: { a: { url: 'https://a.example/mcp', oauth: { clientSecret: x } } }"))
                .hasMessage("upstreams.a.oauth.clientSecret: needs clientId beside it");
        assertThatThrownBy(() -> parse("upstreams: { a: { url: 'https://a.example/mcp', oauth: { clientMetadataUrl: 'http://x/c.json' } } }"))
                .hasMessageStartingWith("upstreams.a.oauth: clientMetadataUrl must be an https URL")
                .hasMessageNotContaining("http://x");
    }

    @Test
    void anHttpUpstreamMayActForEachCallerByTokenExchangeOnAConnectionPerClient() {
        Upstream u = parse("""
                upstreams:
                  files:
                    url: https://files.internal/mcp
                    tokenExchange: { tokenEndpoint: 'https://as.example/token', clientId: gw, clientSecret: s, scopes: [read] }
                """).upstreams().get(0);

        assertThat(u.perClient()).isTrue();
        assertThat(u.onBehalf()).isPresent();
        assertThatThrownBy(() -> parse("upstreams: { a: { url: 'https://a.example/mcp', perClient: false, "
                + "tokenExchange: { tokenEndpoint: 'https://as.example/token', clientId: gw, clientSecret: s } } }"))
                .hasMessageContaining("upstreams.a.perClient");
        assertThatThrownBy(() -> parse("upstreams: { a: { url: 'https://a.example/mcp', oauth: {}, "
                + "tokenExchange: { tokenEndpoint: 'https://as.example/token', clientId: gw, clientSecret: s } } }"))
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> parse("upstreams: { a: { url: 'https://a.example/mcp', "
                + "tokenExchange: { tokenEndpoint: 'https://as.example/token', clientId: gw } } }"))
                .hasMessageContaining("upstreams.a.tokenExchange.clientSecret: required");
        assertThatThrownBy(() -> parse("upstreams: { a: { url: 'https://a.example/mcp', "
                + "tokenExchange: { tokenEndpoint: 'http://as.example/token', clientId: gw, clientSecret: s } } }"))
                .hasMessageContaining("HTTPS or loopback");
    }

    @Test
    void theLargestAnswerFromAnUpstreamIsConfigurable() {
        assertThat(parse("upstreams: { a: { command: x, maxMessageBytes: 16777216 } }").upstreams()).hasSize(1);
        assertThatThrownBy(() -> parse("upstreams: { a: { command: x, maxMessageBytes: 10 } }"))
                .hasMessage("upstreams.a.maxMessageBytes: expected a number of bytes of at least 1024");
    }

    @Test
    void howLongAnExtraConnectionMayIdleIsConfigurable() {
        assertThat(parse("upstreams: { a: { command: x } }").upstreams().get(0).closeIdleAfter())
                .isEqualTo(Upstream.DEFAULT_CLOSE_IDLE_AFTER);
        assertThat(parse("upstreams: { a: { command: x, closeIdleAfter: 90s } }").upstreams().get(0).closeIdleAfter())
                .isEqualTo(Duration.ofSeconds(90));
        assertThatThrownBy(() -> parse("upstreams: { a: { command: x, closeIdleAfter: 0s } }"))
                .hasMessage("upstreams.a.closeIdleAfter: expected a positive duration such as 60s, 5m or 1500ms");
    }

    @Test
    void anAllowListHidesEveryOtherTool() {
        Upstream u = parse("upstreams: { a: { command: x, tools: { allow: [read] } } }").upstreams().get(0);
        assertThat(u.allowTools()).contains(Set.of("read"));
        assertThat(u.exposes("write")).isFalse();
    }

    @Test
    void anUnknownKeyIsNamedWithWhatIsExpected() {
        assertThatThrownBy(() -> parse("upstreams: { a: { comand: x } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown key upstreams.a.comand").hasMessageContaining("command");
    }

    @Test
    void aBadDurationNamesItsKeyAndTheForm() {
        assertThatThrownBy(() -> parse("upstreams: { a: { command: x, timeout: soon } }"))
                .hasMessage("upstreams.a.timeout: expected a duration such as 60s, 5m or 1500ms");
    }

    @Test
    void aServerNeedsACommandOrAUrlButNotBoth() {
        assertThatThrownBy(() -> parse("upstreams: { a: { command: x, url: 'https://a.example/mcp' } }"))
                .hasMessageContaining("upstreams.a: expected exactly one of \"command\"");
        assertThatThrownBy(() -> parse("upstreams: { a: { timeout: 5s } }"))
                .hasMessageContaining("upstreams.a: expected exactly one of");
    }

    @Test
    void aMissingEnvironmentVariableIsNamedButNoValueIsShown() {
        assertThatThrownBy(() -> parse("upstreams: { a: { url: 'https://a.example/mcp', headers: { X-Key: '${NOPE}' } } }"))
                .hasMessage("upstreams.a.headers.X-Key: the environment variable NOPE is not set");
    }

    @Test
    void aPortOutOfRangeIsRefused() {
        assertThatThrownBy(() -> parse("http: { port: 70000 }\nupstreams: { a: { command: x } }"))
                .hasMessageContaining("http.port: expected a port number");
    }

    @Test
    void aUrlThatIsNotHttpIsRefusedWithoutEchoingIt() {
        assertThatThrownBy(() -> parse("upstreams: { a: { url: 'ftp://user:pw@host/x' } }"))
                .hasMessage("upstreams.a.url: expected an http or https URL");
    }

    @Test
    void namesThatCannotBeUpstreamNamesAreCleanedUp() {
        assertThat(parse("{\"mcpServers\": {\"my server!\": {\"command\": \"x\"}}}").upstreams().get(0).name())
                .isEqualTo("my-server-");
    }

    @Test
    void noServersAtAllIsAnError() {
        assertThatThrownBy(() -> parse("upstreams: {}")).hasMessageContaining("at least one");
        assertThatThrownBy(() -> parse("[]")).hasMessageContaining("mapping");
        assertThatThrownBy(() -> parse("x: 1")).hasMessageContaining("unknown key x");
    }


    @Test
    void oneMessageSizeLimitServesBothDirectionsAndDefaultsTo64MiB() {
        GatewayConfig plain = parse("upstreams: { a: { command: [srv] } }");
        assertThat(plain.maxMessageBytes()).isEqualTo(64 * 1024 * 1024);
        assertThat(plain.upstreams().get(0).maxMessageBytes()).isEqualTo(64 * 1024 * 1024);
        GatewayConfig set = parse("""
                maxMessageBytes: 200000000
                upstreams: { a: { command: [srv] }, b: { command: [srv], maxMessageBytes: 4096 } }
                """);
        assertThat(set.maxMessageBytes()).isEqualTo(200_000_000);
        assertThat(set.upstreams().get(0).maxMessageBytes()).isEqualTo(200_000_000);
        assertThat(set.upstreams().get(1).maxMessageBytes()).isEqualTo(4096);
        GatewayConfig flag = GatewayConfig.parse("maxMessageBytes: 5000\nupstreams: { a: { command: [srv] } }",
                ENV::get, Optional.of(9000));
        assertThat(flag.maxMessageBytes()).as("--max-message-bytes wins").isEqualTo(9000);
        assertThat(flag.upstreams().get(0).maxMessageBytes()).isEqualTo(9000);
    }

    @Test
    void aTooSmallMessageLimitNamesItsSetting() {
        assertThatThrownBy(() -> parse("maxMessageBytes: 10\nupstreams: { a: { command: [srv] } }"))
                .hasMessage("maxMessageBytes: expected a number of bytes of at least 1024");
    }

    @Test
    void credentialRedactionInResultsCanBeSetPerTool() {
        Upstream fs = parse("""
                upstreams:
                  fs:
                    command: [srv]
                    redactCredentialsInResults: { default: true, tools: { read_text_file: false } }
                """).upstreams().get(0);
        assertThat(fs.redactsResultsOf("read_text_file")).isFalse();
        assertThat(fs.redactsResultsOf("search_files")).isTrue();
        assertThatThrownBy(() -> parse("upstreams: { a: { command: [srv], redactCredentialsInResults: { tools: { x: 1 } } } }"))
                .hasMessage("upstreams.a.redactCredentialsInResults.tools.x: expected true or false");
    }

    @Test
    void rootsForASharedServerAreAbsolutePathsOrFileUris() {
        Upstream fs = parse("upstreams: { fs: { command: [srv], roots: [/srv/data, \"file:///home/shared\"] } }")
                .upstreams().get(0);
        assertThat(fs.roots()).contains(java.util.List.of("file:///srv/data", "file:///home/shared"));
        assertThatThrownBy(() -> parse("upstreams: { fs: { command: [srv], roots: [relative/dir] } }"))
                .hasMessage("upstreams.fs.roots: expected a list of absolute paths or file:// URIs");
    }

    @Test
    void theIncidentStoreAndTheAuditLogKeep256MiBAndTwoWeeksUnlessToldOtherwise() {
        GatewayConfig defaults = parse("upstreams: { a: { command: x } }");
        assertThat(defaults.incidents()).isEqualTo(dev.warden.core.segment.Retention.DEFAULT);
        assertThat(defaults.audit().retention().maxBytes()).isEqualTo(256L * 1024 * 1024);
        assertThat(defaults.audit().retention().maxAge()).isEqualTo(Duration.ofDays(14));
        GatewayConfig set = parse("upstreams: { a: { command: x } }\n"
                + "incidents: { maxSize: 64MiB, maxAge: 3d }\naudit: { maxSize: 1GiB, maxAge: 90d }");
        assertThat(set.incidents().maxBytes()).isEqualTo(64L * 1024 * 1024);
        assertThat(set.incidents().maxAge()).isEqualTo(Duration.ofDays(3));
        assertThat(set.audit().retention().maxBytes()).isEqualTo(1L << 30);
        assertThat(set.audit().retention().maxAge()).isEqualTo(Duration.ofDays(90));
    }

    @Test
    void aRetainedSizeThatIsNotOneNamesItsKey() {
        assertThatThrownBy(() -> parse("upstreams: { a: { command: x } }\nincidents: { maxSize: lots }"))
                .hasMessageContaining("incidents.maxSize: expected a size such as 256MiB");
        assertThatThrownBy(() -> parse("upstreams: { a: { command: x } }\nincidents: { maxSize: 1KiB }"))
                .hasMessageContaining("incidents.maxSize").hasMessageContaining("at least");
    }

    @Test
    void anUpstreamNamesTheVariablesItInheritsByTheirNames() {
        assertThatThrownBy(() -> parse("""
                upstreams:
                  a: { command: x, inheritEnv: ["NODE_EXTRA_CA_CERTS", "A=B"] }
                """)).isInstanceOf(ConfigException.class)
                .hasMessage("upstreams.a.inheritEnv: expected names of environment variables (letters, digits and _)");
        assertThat(parse("""
                upstreams:
                  a: { command: x, inheritEnv: [NODE_EXTRA_CA_CERTS] }
                """).upstreams()).hasSize(1);
    }

    @Test
    void limitsOnConnectionsAndParkedCallsAreRead() {
        GatewayConfig cfg = parse("""
                limits: { parkedCalls: 50, parkedCallsPerClient: 5 }
                upstreams:
                  a: { command: x, perClient: true, maxConnections: 4 }
                """);
        assertThat(cfg.parked()).isEqualTo(new GatewayConfig.Parked(50, 5));
        assertThat(cfg.upstreams().get(0).limits().maxConnections()).isEqualTo(4);
        assertThat(parse("upstreams: { a: { command: x } }").parked()).isEqualTo(GatewayConfig.Parked.ofDefaults());
        assertThat(parse("upstreams: { a: { command: x } }").upstreams().get(0).limits().maxConnections())
                .isEqualTo(Limits.DEFAULT_MAX_CONNECTIONS);
        assertThatThrownBy(() -> parse("upstreams: { a: { command: x, maxConnections: 0 } }"))
                .hasMessage("upstreams.a.maxConnections: expected a whole number of at least 1");
        assertThatThrownBy(() -> parse("limits: { parkedCallsPerClient: 0 }\nupstreams: { a: { command: x } }"))
                .hasMessage("limits.parkedCallsPerClient: expected a whole number of at least 1");
    }

    @Test
    void eachClientsShareOfAnUpstreamsConcurrencyIsReadBesideMaxConcurrent() {
        Limits limits = parse("upstreams: { a: { command: x, maxConcurrent: 32, maxConcurrentPerClient: 3 } }")
                .upstreams().get(0).limits();
        assertThat(limits.maxConcurrentPerClient()).isEqualTo(3);
        assertThat(limits.maxConcurrent()).isEqualTo(32);
        assertThat(parse("upstreams: { a: { command: x } }").upstreams().get(0).limits().maxConcurrentPerClient())
                .isEqualTo(Limits.DEFAULT_MAX_CONCURRENT_PER_CLIENT).isEqualTo(8);
        assertThatThrownBy(() -> parse("upstreams: { a: { command: x, maxConcurrentPerClient: 0 } }"))
                .hasMessage("upstreams.a.maxConcurrentPerClient: expected a whole number of at least 1");
        assertThatThrownBy(() -> parse("upstreams: { a: { command: x, maxConcurrentPerClient: many } }"))
                .hasMessage("upstreams.a.maxConcurrentPerClient: expected a whole number");
    }

    @Test
    void breakersCountToolErrorsOnlyWhereAnUpstreamOptsIn() {
        assertThat(parse("upstreams: { a: { command: x } }").upstreams().get(0).limits().breaker().countToolErrors())
                .isFalse();
        assertThat(parse("upstreams: { a: { command: x, breaker: { openFor: 10s } } }").upstreams().get(0).limits()
                .breaker().countToolErrors()).isFalse();
        Limits.Breaker opted = parse("upstreams: { a: { command: x, breaker: { countToolErrors: true } } }")
                .upstreams().get(0).limits().breaker();
        assertThat(opted.countToolErrors()).isTrue();
        assertThat(opted.openFor()).isEqualTo(Limits.Breaker.ofDefaults().openFor());
        assertThatThrownBy(() -> parse("upstreams: { a: { command: x, breaker: { countToolErrors: yes-please } } }"))
                .hasMessage("upstreams.a.breaker.countToolErrors: expected true or false");
    }
}
