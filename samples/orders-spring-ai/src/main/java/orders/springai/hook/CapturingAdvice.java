package orders.springai.hook;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;

/**
 * Around a tool method: the exception it throws goes into the call slot, and Spring AI is given a
 * bare marker instead, whose text never reaches the client (the guarded handler replaces the result).
 */
final class CapturingAdvice implements MethodInterceptor {

    /** Unchecked on purpose: Spring AI turns it into an error result, not a -32603 (see the guide). */
    static final class Captured extends RuntimeException {

        Captured() {
            super("tool failed", null, false, false);
        }
    }

    // doc:advice
    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        try {
            return invocation.proceed();
        } catch (Throwable original) {
            if (CallSlot.fill(original)) {
                throw new Captured();
            }
            throw original;
        }
    }
    // end:advice
}
