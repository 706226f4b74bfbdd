package orders;

import dev.warden.client.McpClient;
import dev.warden.client.ToolCallResult;
import dev.warden.client.auth.OAuth;
import dev.warden.core.session.RequestOptions;
import java.net.URI;
import java.time.Duration;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client docs/guides/write-a-client.md shows: the blocks between "doc:" and "end:" are quoted
 * there word for word (DocSamplesTest checks it).
 */
public final class OrdersClient {

    private final ObjectNode args = JsonMapper.shared().createObjectNode().put("id", "o-1");

    void call() {
        // doc:call
        try (McpClient client = McpClient.builder("my-app", "1.0.0")
                .onElicitation(params -> askTheUser(params))              // declares the capability
                .connect(McpClient.http(URI.create("http://127.0.0.1:8080/mcp")))) {   // or McpClient.stdio(cmd)
            ToolCallResult result = client.callTool("cancel_order", args, RequestOptions.ofToolCallDefaults()
                    .withTimeout(Duration.ofSeconds(10))        // idle: reset by each progress notification
                    .withMaxTotalTimeout(Duration.ofMinutes(2))); // never extended
            if (result.isError()) {                             // a tool failure the model can act on
                showTheModel(result);
            }
        }
        // end:call
    }

    McpClient connectWithOAuth() {
        // doc:oauth
        OAuth oauth = OAuth.builder()
                .clientName("my-app")
                .redirectUri(URI.create("http://127.0.0.1:33418/callback"))
                .userAgent((authorizationUrl, redirectUri) -> openBrowserAndWaitForRedirect(authorizationUrl))
                .build();                               // or .client(id, secret) for a pre-registered client
        McpClient client = McpClient.builder("my-app", "1.0.0")
                .connect(McpClient.http(URI.create("https://mcp.example.com/mcp"), oauth));
        // end:oauth
        return client;
    }

    private static ObjectNode askTheUser(ObjectNode elicitation) {
        return JsonMapper.shared().createObjectNode().put("action", "decline");
    }

    private static void showTheModel(ToolCallResult failure) {
        System.out.println(failure.content());
    }

    private static URI openBrowserAndWaitForRedirect(URI authorizationUrl) {
        throw new UnsupportedOperationException("a browser goes here: " + authorizationUrl);
    }

    public static void main(String[] args) {
        new OrdersClient().call();
    }
}
