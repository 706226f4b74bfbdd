package dev.warden.audit.definitions;

import dev.warden.audit.AuditCheck;
import dev.warden.audit.Finding;
import dev.warden.audit.Rule;
import dev.warden.core.pin.DefinitionPins;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * A hash of every definition a server listed ({@code warden audit --pin FILE}), and the findings
 * of comparing two: each definition changed or added since it was pinned is a
 * {@link Rule#DEFINITION_CHANGED}, each no longer listed a {@link Rule#DEFINITION_REMOVED}. The
 * hashing and the file are the core's {@link DefinitionPins}, which the gateway's {@code pin:} reads too.
 */
public final class Pins {

    private final DefinitionPins hashes;
    /** Where each key stands in the lists it was made from ({@code definition:/tools/3}); empty when read from a file. */
    private final Map<String, String> locations;

    private Pins(DefinitionPins hashes, Map<String, String> locations) {
        this.hashes = Objects.requireNonNull(hashes, "hashes");
        this.locations = Map.copyOf(locations);
    }

    /** The pins of what a server listed. */
    public static Pins of(Definitions definitions) {
        Map<String, String> locations = new HashMap<>();
        definitions.lists().forEach((field, items) -> {
            for (int i = 0; i < items.size(); i++) {
                locations.putIfAbsent(DefinitionPins.keyOf(field, items.get(i)), "definition:/" + field + "/" + i);
            }
        });
        Map<String, JsonNode> arrays = new HashMap<>();
        definitions.lists().forEach((field, items) -> {
            var array = dev.warden.core.json.Json.mapper().createArrayNode();
            items.forEach(array::add);
            arrays.put(field, array);
        });
        return new Pins(DefinitionPins.of(arrays), locations);
    }

    /** Pins as {@link #write} wrote them; an {@link IllegalArgumentException} names what in the file is wrong. */
    public static Pins read(Path file) throws IOException {
        return new Pins(DefinitionPins.read(file), Map.of());
    }

    public void write(Path file) throws IOException {
        hashes.write(file);
    }

    /** The hashes by key ({@code tool:read_file}). */
    public Map<String, String> hashes() {
        return hashes.hashes();
    }

    /**
     * What changed from {@code pinned} to {@code now}: a {@link Rule#DEFINITION_CHANGED} for each
     * changed or added definition, located where {@code now} lists it, and a
     * {@link Rule#DEFINITION_REMOVED} for each pinned one no longer listed.
     */
    public static List<Finding> diff(Pins pinned, Pins now) {
        DefinitionPins.Changes changes = pinned.hashes.changesTo(now.hashes);
        List<Finding> out = new ArrayList<>();
        for (String key : changes.changed()) {
            out.add(finding(Rule.DEFINITION_CHANGED, key, now.where(key), "The definition changed since it was pinned."));
        }
        for (String key : changes.added()) {
            out.add(finding(Rule.DEFINITION_CHANGED, key, now.where(key), "The definition is new since the pins were "
                    + "recorded."));
        }
        for (String key : changes.removed()) {
            out.add(finding(Rule.DEFINITION_REMOVED, key, "definition:/" + listOf(key),
                    "The pinned definition is no longer listed."));
        }
        return out;
    }

    /**
     * A check comparing what the audited server lists with the pins in {@code file}: the file is
     * read when the check runs (a missing or malformed file fails the check, naming it).
     */
    public static AuditCheck against(Path file) {
        return new AuditCheck() {
            @Override
            public List<Finding> check(dev.warden.audit.AuditContext context) {
                try {
                    return diff(read(file), of(Definitions.of(context)));
                } catch (IOException e) {
                    throw new UncheckedIOException("pin file " + file + " could not be read", e);
                }
            }

            @Override
            public String name() {
                return "pins";
            }
        };
    }

    private String where(String key) {
        return locations.getOrDefault(key, "definition:/" + listOf(key));
    }

    private static String listOf(String key) {
        String kind = key.substring(0, key.indexOf(':'));
        return DefinitionPins.KINDS.entrySet().stream().filter(e -> e.getValue().equals(kind))
                .map(Map.Entry::getKey).findFirst().orElse(kind);
    }

    private static Finding finding(Rule rule, String key, String location, String message) {
        String name = key.substring(key.indexOf(':') + 1);
        return new Finding(rule, Optional.of(Visible.of(name)), "pins compared", location, message, Optional.empty());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Pins p && p.hashes.equals(hashes);
    }

    @Override
    public int hashCode() {
        return hashes.hashCode();
    }
}
