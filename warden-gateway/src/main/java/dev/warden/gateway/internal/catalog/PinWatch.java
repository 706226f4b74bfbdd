package dev.warden.gateway.internal.catalog;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.identity.Caller;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.pin.DefinitionPins;
import dev.warden.gateway.config.Pin;
import dev.warden.gateway.config.Upstream;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * The upstreams' pinned definitions ({@code pin:}) against what they list now, shared by every
 * client connection: a tool, prompt or resource listed with another hash than its pin, or not
 * pinned at all, is logged once per change (a WARNING naming it and the upstream, never its text) and recorded as
 * an incident; in {@code block} mode such a tool is hidden and a call to it is answered as an
 * unknown tool. A tool never pinned is blocked even before it is listed; one that changed is
 * blocked from the listing that shows the change on, the gateway's own as it connects to the
 * upstream ({@link ListingOnConnect}) or a client's (and visible again if it changes back).
 */
public final class PinWatch {

    private static final System.Logger LOG = System.getLogger(PinWatch.class.getName());
    /** Changes remembered at most, so an upstream that renames its tools endlessly cannot grow this without bound. */
    static final int MAX_SEEN = 10_000;

    private final Map<String, Pin> pins;
    /** Core's recorder, over the gateway's incident store. */
    private final ErrorBoundary incidents;
    /** Per upstream, its own tool names whose listed definition differs from the pin (block mode hides them). */
    private final Map<String, Set<String>> changedTools;
    /** upstream + key + hash already reported: each change is logged and recorded once. */
    private final Set<String> reported;

    public PinWatch(List<Upstream> upstreams, IncidentSink incidents, Clock clock) {
        this.pins = upstreams.stream().filter(u -> u.pin().isPresent())
                .collect(Collectors.toUnmodifiableMap(Upstream::name, u -> u.pin().orElseThrow(),
                        (a, b) -> a));
        this.incidents = ErrorBoundary.builder().incidents(incidents).clock(clock).build();
        this.changedTools = new ConcurrentHashMap<>();
        this.reported = ConcurrentHashMap.newKeySet();
    }

    private PinWatch(PinWatch shared, ErrorBoundary incidents) {
        this.pins = shared.pins;
        this.incidents = incidents;
        this.changedTools = shared.changedTools;
        this.reported = shared.reported;
    }

    /** The same watch as one client connection uses it: a change seen in its listing is recorded with its caller. */
    public PinWatch servedTo(Supplier<Optional<Caller>> caller) {
        return new PinWatch(this, incidents.serving(caller));
    }

    /** A watch for no pins: everything is as listed. */
    public static PinWatch none() {
        return new PinWatch(List.of(), IncidentSink.all(), Clock.systemUTC());
    }

    /**
     * Whether one item of an upstream's listing ({@code tools}, {@code prompts}, {@code resources},
     * {@code resourceTemplates}) is shown to clients; a change is reported on the way. Only tools
     * are ever hidden.
     */
    public boolean shows(String upstream, String field, JsonNode item) {
        Pin pin = pins.get(upstream);
        if (pin == null) {
            return true;
        }
        String key = DefinitionPins.keyOf(field, item);
        String hash = DefinitionPins.hash(item);
        String pinned = pin.pins().hashes().get(key);
        boolean tool = "tools".equals(field);
        String name = item.path("name").asString("");
        if (hash.equals(pinned)) {
            Set<String> changed = changedTools.get(upstream);
            if (tool && changed != null) {
                changed.remove(name);
            }
            return true;
        }
        if (tool) {
            Set<String> changed = changedTools.computeIfAbsent(upstream, u -> ConcurrentHashMap.newKeySet());
            if (changed.size() < MAX_SEEN) {
                changed.add(name);
            }
        }
        report(upstream, pin, key, hash, pinned == null);
        return !(tool && pin.mode() == Pin.Mode.BLOCK);
    }

    /** Whether a tool of an upstream (its own name) may be called: in block mode, only one pinned and unchanged. */
    public boolean callable(String upstream, String tool) {
        Pin pin = pins.get(upstream);
        if (pin == null || pin.mode() == Pin.Mode.WARN) {
            return true;
        }
        return pin.pins().hashes().containsKey("tool:" + tool)
                && !changedTools.getOrDefault(upstream, Set.of()).contains(tool);
    }

    private void report(String upstream, Pin pin, String key, String hash, boolean added) {
        if (reported.size() >= MAX_SEEN || !reported.add(upstream + "\u0000" + key + "\u0000" + hash)) {
            return;
        }
        String what = added ? "is not pinned" : "changed since it was pinned";
        String action = pin.mode() == Pin.Mode.BLOCK && key.startsWith("tool:") ? "; hidden (pinMode: block)" : "";
        // The key holds only the upstream's name for the definition; its text stays out of the log.
        LOG.log(System.Logger.Level.WARNING, "upstream {0}: {1} {2} ({3}){4}", upstream, key, what,
                pin.file().getFileName(), action);
        // A store that cannot write says so itself (its FailureNotice); the warning above stands.
        incidents.record((ref, now) -> new Incident(ref, now, ErrorCode.BLOCKED, "definition-pin",
                Optional.of(key.substring(key.indexOf(':') + 1)), Optional.of(upstream), Optional.empty(),
                List.of(), List.of()).withReason(key + " " + what + action));
    }
}
