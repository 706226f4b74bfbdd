package orders;

import dev.warden.core.error.ToolFailure;
import dev.warden.server.McpServer;
import dev.warden.server.PromptSpec;
import dev.warden.server.ResourceSpec;
import dev.warden.server.ResourceTemplateSpec;

/**
 * Resources and prompts, as docs/guides/write-a-server.md quotes them: the block between "doc:" and
 * "end:" is quoted there word for word (DocSamplesTest checks it).
 */
final class OrdersCatalog {

    private final Orders orders = new Orders();

    McpServer server() {
        // doc:resources
        McpServer server = McpServer.builder("orders", "1.0.0")
                .resource(ResourceSpec.builder("orders://policy").name("policy").title("Cancellation policy")
                        .mimeType("text/markdown")
                        .text(variables -> "Orders can be cancelled until they ship.")
                        .build())
                .resourceTemplate(ResourceTemplateSpec.builder("orders://{id}").name("order")
                        .mimeType("text/plain")
                        .text(variables -> orders.find(variables.get("id"))
                                .map(order -> order.id() + (order.shipped() ? ": shipped" : ": not shipped"))
                                .orElseThrow(() -> ToolFailure.notFound("No order with this id.")))
                        .build())
                .prompt(PromptSpec.builder("explain_order").description("Explain an order's state to its customer")
                        .argument("id", "The order's id, o-…", true)
                        .argument("tone", "friendly (the default) or formal", false)
                        .text(arguments -> "In a " + arguments.getOrDefault("tone", "friendly")
                                + " tone, explain to the customer the state of order orders://" + arguments.get("id"))
                        .build())
                .build();
        // end:resources
        return server;
    }
}
