package dev.warden.server;

import static dev.warden.server.TestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class LifecycleTest {

    private final McpServer server = McpServer.builder("test", "1.0")
            .incidents(incident -> { })
            .tool(ToolSpec.builder("hello").handler(call -> ToolResult.text("hi")).build())
            .build();

    @Test
    void aSupportedVersionIsEchoed() throws Exception {
        try (TestClient client = new TestClient(server)) {
            JsonNode reply = client.request("initialize", TestClient.initializeParams("2025-06-18"));
            assertThat(reply.get("result").get("protocolVersion").stringValue()).isEqualTo("2025-06-18");
            assertThat(reply.get("result").get("serverInfo").get("name").stringValue()).isEqualTo("test");
        }
    }

    @Test
    void anUnsupportedVersionIsAnsweredWithTheLatest() throws Exception {
        try (TestClient client = new TestClient(server)) {
            JsonNode reply = client.request("initialize", TestClient.initializeParams("2030-01-01"));
            assertThat(reply.get("result").get("protocolVersion").stringValue()).isEqualTo("2025-11-25");
        }
    }

    @Test
    void capabilitiesDeclareOnlyWhatIsRegistered() throws Exception {
        try (TestClient client = new TestClient(server)) {
            JsonNode caps = client.request("initialize", TestClient.initializeParams("2025-11-25"))
                    .get("result").get("capabilities");
            assertThat(caps.has("tools")).isTrue();
            assertThat(caps.has("logging")).isTrue();
            assertThat(caps.has("resources")).isFalse();
            assertThat(caps.has("prompts")).isFalse();
        }
    }

    @Test
    void requestsBeforeInitializeAreInvalidRequests() throws Exception {
        try (TestClient client = new TestClient(server)) {
            JsonNode reply = client.request("tools/list", json("{}"));
            assertThat(reply.get("error").get("code").asInt()).isEqualTo(-32600);
        }
    }

    @Test
    void pingIsAnsweredBeforeInitialize() throws Exception {
        try (TestClient client = new TestClient(server)) {
            assertThat(client.request("ping", null).get("result").isObject()).isTrue();
        }
    }

    @Test
    void requestsPipelinedRightAfterInitializeAreServed() throws Exception {
        try (TestClient client = new TestClient(server)) {
            client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                    + TestClient.initializeParams("2025-11-25") + "}");
            client.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
            JsonNode first = client.next();
            JsonNode second = client.next();
            assertThat(first.get("id").asInt()).isEqualTo(1);
            assertThat(second.get("result").get("tools").size()).isEqualTo(1);
        }
    }

    @Test
    void aSecondInitializeIsRejected() throws Exception {
        try (TestClient client = TestClient.initialized(server)) {
            JsonNode reply = client.request("initialize", TestClient.initializeParams("2025-11-25"));
            assertThat(reply.get("error").get("code").asInt()).isEqualTo(-32600);
        }
    }

    @Test
    void initializeWithoutAVersionIsInvalidParams() throws Exception {
        try (TestClient client = new TestClient(server)) {
            JsonNode reply = client.request("initialize", json("{\"capabilities\":{}}"));
            assertThat(reply.get("error").get("code").asInt()).isEqualTo(-32602);
        }
    }

    @Test
    void batchesWorkInTheMarch2025Version() throws Exception {
        try (TestClient client = TestClient.initialized(server, "2025-03-26")) {
            client.send("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
                    + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}]");
            JsonNode reply = client.next();
            assertThat(reply.isArray()).isTrue();
            assertThat(reply.size()).isEqualTo(2);
        }
    }

    @Test
    void batchesWorkInTheNovember2024VersionToo() throws Exception {
        try (TestClient client = TestClient.initialized(server, "2024-11-05")) {
            client.send("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
                    + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}]");
            JsonNode reply = client.next();
            assertThat(reply.isArray()).isTrue();
            assertThat(reply.size()).isEqualTo(2);
        }
    }

    @Test
    void batchesAreInvalidInLaterVersions() throws Exception {
        try (TestClient client = TestClient.initialized(server, "2025-06-18")) {
            client.send("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");
            JsonNode reply = client.next();
            assertThat(reply.get("error").get("code").asInt()).isEqualTo(-32600);
            assertThat(reply.get("id").isNull()).isTrue();
        }
    }

    @Test
    void setLevelAcceptsSpecLevelsAndRejectsOthersWithoutEcho() throws Exception {
        try (TestClient client = TestClient.initialized(server)) {
            assertThat(client.request("logging/setLevel", json("{\"level\":\"warning\"}")).has("result")).isTrue();
            String raw = client.requestRaw("logging/setLevel", json("{\"level\":\"verbose_probe\"}"));
            assertThat(raw).contains("-32602").doesNotContain("verbose_probe");
        }
    }
}
