package dev.warden.e2e.attack;

import java.util.List;

/** Drop-in fidelity through {@code warden wrap}: the server's answer keeps its shape. */
final class DropIn {

    private DropIn() {
    }

    static List<Attack> all() {
        return List.of(isErrorStaysAToolResult());
    }

    /**
     * Issue 31: the official Java SDK's schema failure, an isError result "Tool (x) input
     * validation failed: … required property 'email' not found", became JSON-RPC -32602 "Unknown
     * tool": the model lost what it had to fix and was told the tool does not exist.
     */
    static Attack isErrorStaysAToolResult() {
        return Attack.onWrap("wrap: an isError result stays a tool result",
                "the server answers isError with the Java SDK's input-validation text", List.of(),
                (target, scale, tally) -> {
                    WrapPeer peer = target.peer.orElseThrow();
                    peer.send(McpHttp.call(1, "schema-failure", "{\"name\":\"Ada\"}"));
                    peer.awaitAnswers(1, 1, WrapAttacks.GUARD);
                    peer.count(1, 1, tally);
                    peer.answer(1).ifPresent(a -> {
                        if (a.has("error")) {
                            tally.problem("an isError result became JSON-RPC error " + a.get("error"));
                        } else if (!a.at("/result/isError").asBoolean(false)) {
                            tally.problem("an isError result lost isError: " + a);
                        }
                    });
                });
    }
}
