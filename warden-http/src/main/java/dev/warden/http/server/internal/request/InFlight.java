package dev.warden.http.server.internal.request;

import org.eclipse.jetty.util.Callback;

/** A request admitted while serving counts as in flight until its response is complete, however it ends. */
public final class InFlight {

    private InFlight() {
    }

    /** {@code callback}, which runs {@code exit} once after it completes, by success or failure. */
    public static Callback exitingWhenDone(Callback callback, Runnable exit) {
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        Runnable once = () -> {
            if (done.compareAndSet(false, true)) {
                exit.run();
            }
        };
        return new Callback() {
            @Override
            public void succeeded() {
                try {
                    callback.succeeded();
                } finally {
                    once.run();
                }
            }

            @Override
            public void failed(Throwable x) {
                try {
                    callback.failed(x);
                } finally {
                    once.run();
                }
            }

            @Override
            public InvocationType getInvocationType() {
                return callback.getInvocationType();
            }
        };
    }
}
