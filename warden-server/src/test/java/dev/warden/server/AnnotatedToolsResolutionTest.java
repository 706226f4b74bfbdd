package dev.warden.server;

import static dev.warden.server.TestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** @Tool methods found where they are declared (interfaces, generic bases) and argued as the record form is. */
class AnnotatedToolsResolutionTest {

    interface Api {
        @Tool(description = "Answers pong.")
        String ping();
    }

    static class ApiImpl implements Api {
        @Override
        public String ping() {
            return "pong";
        }
    }

    abstract static class Base<A extends Record> {
        @Tool
        String run(A args) {
            return "ran " + args;
        }
    }

    record Ping(String host) {
    }

    static class PingTool extends Base<Ping> {
    }

    static class Find {
        @Tool
        String find(String id, Optional<String> note, @ToolParam(required = false) Integer limit) {
            return id + " " + note + " " + limit;
        }
    }

    private TestClient client;

    private TestClient serve(Object target) throws Exception {
        client = TestClient.initialized(McpServer.builder("resolution", "1").tools(target).build());
        return client;
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
    }

    private static String text(JsonNode answer) {
        assertThat(answer.get("result").get("isError").asBoolean()).as("%s", answer).isFalse();
        return answer.get("result").get("content").get(0).get("text").stringValue();
    }

    @Test
    void aToolDeclaredOnAnInterfaceIsFoundOnItsImplementation() throws Exception {
        serve(new ApiImpl());
        assertThat(client.listedTool("ping").get("description").stringValue()).isEqualTo("Answers pong.");
        assertThat(text(client.callTool("ping", json("{}")))).isEqualTo("pong");
    }

    @Test
    void aToolDeclaredOnAnInterfaceIsFoundOnAJdkProxy() throws Exception {
        Api proxy = (Api) Proxy.newProxyInstance(Api.class.getClassLoader(), new Class<?>[] {Api.class},
                (p, method, args) -> "proxied");
        serve(proxy);
        assertThat(text(client.callTool("ping", json("{}")))).isEqualTo("proxied");
    }

    @Test
    void aGenericBaseMethodTakesTheRecordItsSubclassNames() throws Exception {
        serve(new PingTool());
        JsonNode schema = client.listedTool("run").get("inputSchema");
        assertThat(schema.get("properties").propertyNames()).containsExactly("host");
        assertThat(text(client.callTool("run", json("{\"host\":\"h\"}")))).isEqualTo("ran Ping[host=h]");
    }

    @Test
    void anArgumentThatIsNotRequiredMayBeNullAsInTheRecordForm() throws Exception {
        serve(new Find());
        assertThat(text(client.callTool("find", json("{\"id\":\"x\",\"note\":null,\"limit\":null}"))))
                .isEqualTo("x Optional.empty null");
        assertThat(text(client.callTool("find", json("{\"id\":\"x\"}")))).isEqualTo("x Optional.empty null");
    }
}
