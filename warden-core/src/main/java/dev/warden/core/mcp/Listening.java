package dev.warden.core.mcp;

/**
 * Wire names of a {@code subscriptions/listen} stream (2026-07-28): the request, the notification
 * that acknowledges it, and the {@code _meta} key that ties every notification to its stream.
 */
public final class Listening {

    public static final String METHOD = "subscriptions/listen";
    public static final String ACKNOWLEDGED = "notifications/subscriptions/acknowledged";
    public static final String META_SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId";

    private Listening() {
    }
}
