package dev.warden.adapter.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.spec.McpError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;

/**
 * Whose catch it was: inside a guarded call, code that catches a served method's exception sees
 * that exception itself, and the call's answer is the original only when the handler's outcome was
 * made from it; a handler that caught it and answered has handled it.
 */
class HandledFailuresTest {

    public static class Orders {
        @Tool(description = "reads")
        public String read(String name) throws IOException {
            throw new NoSuchFileException("/srv/app/" + name);
        }
    }

    private final Orders orders = (Orders) new ToolMethodProxies(Orders.class.getClassLoader())
            .postProcessAfterInitialization(new Orders(), "orders");

    @Test
    void aHandWrittenHandlerThatCatchesTheFailureAndAnswersKeepsItsAnswer() {
        Object answer = CallSlot.around(() -> {
            try {
                return orders.read("q3.csv");
            } catch (IOException e) { // the application's own recovery
                return "no such order; try list_orders";
            }
        });
        assertThat(answer).isEqualTo("no such order; try list_orders");
    }

    @Test
    void codeInsideTheCallCatchesTheToolsOwnException() {
        AtomicReference<Throwable> seen = new AtomicReference<>();
        CallSlot.around(() -> {
            try {
                return orders.read("q3.csv");
            } catch (Throwable e) { // what a tool-calling manager catches and inspects
                seen.set(e);
                return "handled";
            }
        });
        assertThat(seen.get()).isInstanceOf(NoSuchFileException.class).hasMessage("/srv/app/q3.csv");
    }

    @Test
    void springAisMethodToolCallbackInsideAGuardedCallThrowsItsToolExecutionException() {
        ToolCallback callback = MethodToolCallbackProvider.builder().toolObjects(orders).build().getToolCallbacks()[0];
        AtomicReference<Throwable> seen = new AtomicReference<>();
        Object answer = CallSlot.around(() -> {
            try {
                return callback.call("{\"name\":\"q3.csv\"}");
            } catch (ToolExecutionException e) { // DefaultToolCallingManager's catch
                seen.set(e);
                return "handled";
            }
        });
        assertThat(seen.get()).isInstanceOf(ToolExecutionException.class)
                .hasRootCauseInstanceOf(NoSuchFileException.class);
        assertThat(answer).isEqualTo("handled");
    }

    @Test
    void aHandlerThatThrowsTheFailureWrappedGivesTheOriginal() {
        assertThatThrownBy(() -> CallSlot.around(() -> {
            try {
                return orders.read("q3.csv");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        })).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void springAisMcpErrorMadeFromTheFailureWithoutItAsCauseGivesTheOriginal() {
        assertThatThrownBy(() -> CallSlot.around(() -> {
            try {
                return orders.read("q3.csv");
            } catch (IOException e) { // as Spring AI's resource and prompt callbacks do
                throw McpError.builder(-32602).message("Error invoking resource method: " + e.getMessage()).build();
            }
        })).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void aHandlerThatThrowsSomethingElseOfItsOwnThrowsThat() {
        IllegalStateException own = new IllegalStateException("orders are closed");
        assertThatThrownBy(() -> CallSlot.around(() -> {
            try {
                return orders.read("q3.csv");
            } catch (IOException e) {
                throw own;
            }
        })).isSameAs(own);
    }
}
