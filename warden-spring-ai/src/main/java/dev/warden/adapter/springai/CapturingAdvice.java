package dev.warden.adapter.springai;

import java.util.Optional;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;

/**
 * Around a method Spring AI serves ({@code @McpTool}, {@code @Tool}, {@code @McpResource}, ...):
 * inside a guarded call, the exception the method throws goes into the {@link CallSlot} and Spring
 * AI is given a bare marker, whose text never reaches the client (the guarded handler answers from
 * the original). Called any other way (a chat client's tool calling, a test), the method throws
 * what it throws.
 */
final class CapturingAdvice implements MethodInterceptor {

    /**
     * An {@link Error}, so no {@code catch (Exception e)} on Spring AI's way turns it into text or an
     * error of its own: it reaches the guarded handler as it is (or, from a {@code @Tool} method,
     * inside Spring AI's exception), which answers from the original instead. No message, no stack.
     */
    static final class Captured extends Error {
        private static final long serialVersionUID = 1L;

        Captured() {
            super("tool failed", null, false, false);
        }
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Optional<CallSlot> slot = CallSlot.current();
        if (slot.isEmpty()) {
            return invocation.proceed();
        }
        slot.get().enter();
        Object result;
        try {
            result = invocation.proceed();
        } catch (Throwable original) {
            if (slot.get().leave(Optional.of(original))) {
                throw new Captured();
            }
            throw original;
        }
        slot.get().leave(Optional.empty());
        return result;
    }
}
