package dev.warden.audit;

/**
 * How the audit reached the server, as every report format says it: a server on the older HTTP+SSE
 * transport is audited over it, and a reader must know that its HTTP checks meant the other one.
 */
public enum TransportUsed {
    STDIO("stdio", "stdio"),
    STREAMABLE_HTTP("streamable-http", "Streamable HTTP"),
    HTTP_SSE("http+sse", "HTTP+SSE (2024-11-05)"),
    /** A transport made in the same JVM ({@link Target#of}). */
    CONNECTED("connected", "a transport made in-process");

    private final String id;
    private final String label;

    TransportUsed(String id, String label) {
        this.id = id;
        this.label = label;
    }

    /** The machine-readable name (JSON and SARIF): {@code streamable-http}. */
    public String id() {
        return id;
    }

    /** The words a reader sees: {@code HTTP+SSE (2024-11-05)}. */
    public String label() {
        return label;
    }
}
