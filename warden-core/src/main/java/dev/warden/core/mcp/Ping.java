package dev.warden.core.mcp;

/** {@code ping}: either side may send it at any time; the answer is an empty result. */
public final class Ping {

    public static final String METHOD = "ping";

    private Ping() {
    }
}
