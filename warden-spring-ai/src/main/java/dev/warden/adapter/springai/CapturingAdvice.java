package dev.warden.adapter.springai;

import java.util.Optional;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;

/**
 * Around a method Spring AI serves ({@code @McpTool}, {@code @Tool}, {@code @McpResource}, ...):
 * inside a guarded call, the exception the method throws is noted in the {@link CallSlot} and
 * rethrown unchanged, so whatever catches it (Spring AI's callbacks, a chat client's tool calling,
 * the application's own handler) sees the method's own exception; the slot then decides whether the
 * handler's outcome came from it. A {@code Mono} or {@code Flux} the method returns notes its later
 * failure in the slot its subscriber's context holds and passes it on unchanged; subscribed outside
 * a guarded call, it fails as it would.
 */
final class CapturingAdvice implements MethodInterceptor {

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Optional<CallSlot> slot = CallSlot.current();
        slot.ifPresent(CallSlot::enter);
        Object result;
        try {
            result = invocation.proceed();
        } catch (Throwable original) {
            slot.ifPresent(s -> s.leave(Optional.of(original)));
            throw original;
        }
        slot.ifPresent(s -> s.leave(Optional.empty()));
        return CallSlot.noting(result, invocation.getMethod().getReturnType());
    }
}
