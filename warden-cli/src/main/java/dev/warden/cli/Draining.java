package dev.warden.cli;

import dev.warden.gateway.Gateway;
import dev.warden.http.server.Admission;
import dev.warden.http.server.McpHttpServer;
import java.time.Duration;
import java.util.List;

/**
 * The gateway's graceful stop over HTTP. SIGTERM (what systemd, Kubernetes and {@code scripts/cluster
 * down} send) turns readiness false and new calls away at once, waits for the calls in flight up to
 * the drain timeout, then stops the server, so that the command returns and the process exits 0.
 * The HTTP server asks the gateway's lifecycle before each new request ({@link #admission}).
 */
final class Draining {

    private Draining() {
    }

    /** What the HTTP server asks before each new request, and what {@code /readyz} answers: the gateway's. */
    static Admission admission(Gateway gateway) {
        return new Admission() {
            @Override
            public boolean enter() {
                return gateway.lifecycle().enter();
            }

            @Override
            public void exit() {
                gateway.lifecycle().exit();
            }

            @Override
            public List<String> unready() {
                return gateway.unready();
            }
        };
    }

    /**
     * On SIGTERM, drains {@code gateway} for up to {@code bound}, then closes {@code server}. A
     * signal handler, not a shutdown hook: a JVM that began shutting down on SIGTERM exits 143 and
     * stops its other threads' work; this lets the command finish and return 0. {@code sun.misc.Signal}
     * (module jdk.unsupported) is reached reflectively: javac's warning on it cannot be suppressed.
     */
    static void onTerm(Gateway gateway, McpHttpServer server, Duration bound) {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Object onSignal = java.lang.reflect.Proxy.newProxyInstance(handler.getClassLoader(),
                    new Class<?>[] {handler}, (proxy, method, args) -> {
                        if ("handle".equals(method.getName())) {
                            Thread.ofVirtual().name("warden-drain").start(() -> drain(gateway, server, bound));
                            return null;
                        }
                        return switch (method.getName()) {
                            case "hashCode" -> System.identityHashCode(proxy);
                            case "equals" -> proxy == args[0];
                            default -> "warden-drain-on-term";
                        };
                    });
            signal.getMethod("handle", signal, handler)
                    .invoke(null, signal.getConstructor(String.class).newInstance("TERM"), onSignal);
        } catch (ReflectiveOperationException | RuntimeException e) {
            System.err.println("warden gateway: SIGTERM will stop the gateway without draining: " + e);
        }
    }

    private static void drain(Gateway gateway, McpHttpServer server, Duration bound) {
        System.err.println("warden gateway: SIGTERM: draining, " + gateway.lifecycle().inFlight()
                + " call(s) in flight, up to " + bound.toMillis() + " ms");
        try {
            boolean finished = gateway.drain(bound);
            System.err.println(finished ? "warden gateway: drained, stopping"
                    : "warden gateway: drain timeout reached with " + gateway.lifecycle().inFlight()
                    + " call(s) in flight, stopping");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            server.close();
        }
    }
}
