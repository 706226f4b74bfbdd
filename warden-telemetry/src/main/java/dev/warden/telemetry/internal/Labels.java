package dev.warden.telemetry.internal;

import dev.warden.telemetry.Channel;
import dev.warden.telemetry.McpNames;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.SpanKind;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The span name and the attributes spans and metrics share (the operator's own, the method, the
 * registered tool or prompt, the channel's but the session), built once per kind, method, target
 * and channel rather than at every message: building them (sorted, deduplicated) was a good part of
 * what tracing cost a call, and the same object lets the metrics SDK find its series by a hash it
 * has kept. What keys them is low-cardinality by construction (MCP's methods, the names a server
 * registered or an upstream listed, known versions, configured servers); past {@link #MAX} they
 * are built per call, not kept, and so are failures' sets past {@link #MAX} over all operations.
 */
public final class Labels {

    /** A bound on what is kept, whatever names come. */
    private static final int MAX = 4096;

    private final Attributes own;
    private final ConcurrentHashMap<Key, Built> built = new ConcurrentHashMap<>();
    private final AtomicInteger keptFailures = new AtomicInteger();

    private record Key(SpanKind kind, String method, Optional<String> target, Optional<String> networkTransport,
                       Optional<String> protocolName, Optional<String> protocolVersion,
                       Optional<String> mcpProtocolVersion, Optional<String> serverAddress,
                       Optional<Integer> serverPort) {
    }

    /**
     * One operation's name and shared attributes, and each failure's attributes ({@code error.type},
     * the codes: as few as the codes are) with the measurement's, kept likewise.
     */
    public static final class Built {
        private final String spanName;
        private final Attributes attributes;
        private final Failed ok;
        private final ConcurrentHashMap<FailureKey, Failed> failed = new ConcurrentHashMap<>();
        /** Failure sets kept by every operation of one {@link Labels}: a peer chooses its codes. */
        private final AtomicInteger keptFailures;

        Built(String spanName, Attributes attributes, AtomicInteger keptFailures) {
            this.spanName = spanName;
            this.attributes = attributes;
            this.ok = new Failed(Attributes.empty(), attributes);
            this.keptFailures = keptFailures;
        }

        public String spanName() {
            return spanName;
        }

        public Attributes attributes() {
            return attributes;
        }

        /** No failure: nothing of its own, the measurement's attributes the shared ones. */
        public Failed ok() {
            return ok;
        }

        /**
         * A failure's own attributes ({@code error.type}, {@code rpc.response.status_code} and
         * {@code warden.error.code} when given), and {@link #attributes()} with them: built once per
         * failure rather than sorted and merged at every failed call.
         */
        public Failed failed(String errorType, Optional<String> statusCode, Optional<String> wardenCode) {
            FailureKey key = new FailureKey(errorType, statusCode, wardenCode);
            Failed kept = failed.get(key);
            if (kept != null) {
                return kept;
            }
            AttributesBuilder own = Attributes.builder().put(McpNames.ERROR_TYPE, errorType);
            statusCode.ifPresent(code -> own.put(McpNames.RPC_RESPONSE_STATUS_CODE, code));
            wardenCode.ifPresent(code -> own.put(McpNames.WARDEN_ERROR_CODE, code));
            Attributes failure = own.build();
            Failed made = new Failed(failure, attributes.toBuilder().putAll(failure).build());
            // A peer's JSON-RPC code is part of the failure's set: the bound is over all operations.
            if (keptFailures.getAndIncrement() < MAX) {
                if (failed.putIfAbsent(key, made) != null) {
                    keptFailures.decrementAndGet();
                }
            } else {
                keptFailures.decrementAndGet();
            }
            return made;
        }
    }

    /**
     * A failure's attributes: its own (added to the span) and with the operation's shared ones (the
     * measurement's); {@link Built#ok()} has none of its own.
     */
    public record Failed(Attributes own, Attributes measured) {
    }

    private record FailureKey(String errorType, Optional<String> statusCode, Optional<String> wardenCode) {
    }

    /** Nothing named, nothing shared: the no-op operation's. */
    public static Built none() {
        return NONE;
    }

    private static final Built NONE = new Built("", Attributes.empty(), new AtomicInteger(MAX));

    public Labels(Attributes own) {
        this.own = own;
    }

    /** Failure sets kept now, over every operation (for the bound's test). */
    int keptFailures() {
        return keptFailures.get();
    }

    /** The name and attributes of {@code method} on {@code target} over {@code channel}, as {@code kind}. */
    public Built of(SpanKind kind, String method, Optional<String> target, Channel channel) {
        Key key = key(kind, method, target, channel);
        Built kept = built.get(key);
        if (kept != null) {
            return kept;
        }
        if (built.size() < MAX) {
            Built made = build(key, keptFailures);
            Built raced = built.putIfAbsent(key, made);
            return raced == null ? made : raced;
        }
        // not kept, so it keeps none of its failures either: they would use up the shared budget
        return build(key, new AtomicInteger(MAX));
    }

    /**
     * The channel's attributes that spans and metrics carry alike (never the session id): what a
     * session's duration is measured with, too.
     */
    public static void describe(Channel channel, SpanKind kind, AttributesBuilder into) {
        describe(key(kind, "", Optional.empty(), channel), into);
    }

    private static Key key(SpanKind kind, String method, Optional<String> target, Channel channel) {
        boolean client = kind == SpanKind.CLIENT;
        return new Key(kind, method, target, channel.networkTransport(), channel.protocolName(),
                channel.protocolVersion(), channel.mcpProtocolVersion(),
                client ? channel.serverAddress() : Optional.empty(), client ? channel.serverPort() : Optional.empty());
    }

    private Built build(Key key, AtomicInteger failureBudget) {
        AttributesBuilder into = Attributes.builder().putAll(own).put(McpNames.MCP_METHOD_NAME, key.method());
        Targets.describe(key.method(), key.target(), into);
        describe(key, into);
        return new Built(McpNames.spanName(key.method(), key.target()), into.build(), failureBudget);
    }

    private static void describe(Key key, AttributesBuilder into) {
        key.networkTransport().ifPresent(t -> into.put(McpNames.NETWORK_TRANSPORT, t));
        key.protocolName().ifPresent(p -> into.put(McpNames.NETWORK_PROTOCOL_NAME, p));
        key.protocolVersion().ifPresent(v -> into.put(McpNames.NETWORK_PROTOCOL_VERSION, v));
        key.mcpProtocolVersion().ifPresent(v -> into.put(McpNames.MCP_PROTOCOL_VERSION, v));
        key.serverAddress().ifPresent(a -> into.put(McpNames.SERVER_ADDRESS, a));
        key.serverPort().ifPresent(p -> into.put(McpNames.SERVER_PORT, p.longValue()));
    }
}
