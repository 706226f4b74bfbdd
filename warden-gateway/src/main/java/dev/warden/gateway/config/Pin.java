package dev.warden.gateway.config;

import dev.warden.core.pin.DefinitionPins;
import java.nio.file.Path;
import java.util.Objects;

/**
 * An upstream's pinned definitions ({@code pin: FILE}, written by {@code warden audit --pin FILE}):
 * what its tools, prompts and resources must still be. A definition listed with another hash, or
 * not pinned at all, is reported ({@link Mode#WARN}: a WARNING naming it and an incident) and, with
 * {@link Mode#BLOCK}, a tool so changed or added is hidden and cannot be called, as if denied.
 *
 * @param file where the pins were read from (named in log lines, never the definitions' text)
 * @param pins the hashes, read when the configuration was
 * @param mode what a change does
 */
public record Pin(Path file, DefinitionPins pins, Mode mode) {

    /** What a changed definition does. */
    public enum Mode {
        /** Logged and recorded as an incident; the definition is used as listed. */
        WARN,
        /** As {@link #WARN}, and a changed or added tool is hidden and unknown when called. */
        BLOCK
    }

    public Pin {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(pins, "pins");
        Objects.requireNonNull(mode, "mode");
    }
}
