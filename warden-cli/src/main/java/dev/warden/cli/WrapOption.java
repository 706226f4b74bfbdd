package dev.warden.cli;

import java.util.List;
import java.util.Optional;

/**
 * {@code warden wrap}'s options: the one table of them. The parser and the help ({@link WrapSpec}),
 * the early start ({@link WrapCommand#commandStart}) and the launcher's copy of it (held to this
 * table by a test) all read it. Plain Java, no picocli: the early start reads it before picocli's
 * classes (too old for the JVM's start-up cache) are loaded.
 */
enum WrapOption {

    NAME("--name", "NAME", Kind.TEXT,
            "The server's name in logs and incidents (default: from the command)."),
    TIMEOUT("--timeout", "DURATION", Kind.TEXT,
            "How long a request may stay silent (progress resets it), e.g. 60s, 5m (default: 60s).", "60s"),
    POLICY("--policy", "POLICY", Kind.TEXT,
            "How failure texts and log messages are sanitized: redact, strict or passthrough (default: redact).",
            "redact"),
    KEEP_CREDENTIALS("--keep-credentials-in-results", "", Kind.FLAG,
            "Do not redact credentials in successful results (they are redacted by default)."),
    REDACT_PII("--redact-pii", "", Kind.FLAG,
            "Also redact personal data (emails, card numbers, SSNs, phone numbers) in failures and "
                    + "successful results (off by default)."),
    FAIL_CLOSED("--fail-closed", "", Kind.FLAG,
            "Refuse calls while the audit log (DIR/audit) or the incident store cannot be written, "
                    + "instead of serving them unrecorded."),
    DATA_DIR(DataDirOption.NAME, DataDirOption.LABEL, Kind.PATH, DataDirOption.DESCRIPTION),
    INCIDENT_LOG(IncidentLogOption.NAME, IncidentLogOption.LABEL, Kind.PATH, IncidentLogOption.DESCRIPTION),
    // wrap's limit holds both ways, between two peers that are both outside Warden.
    MAX_MESSAGE_BYTES(MaxMessageBytesOption.NAME, MaxMessageBytesOption.LABEL, Kind.INT,
            "Largest message accepted, both ways: from the client and from the server (default: "
                    + MaxMessageBytesOption.DEFAULT + ", 64 MiB)."),
    INCIDENTS_MAX_SIZE("--incidents-max-size", "SIZE", Kind.TEXT,
            "Most the incident store keeps on disk, oldest removed first, e.g. 256MiB (the default)."),
    INCIDENTS_MAX_AGE("--incidents-max-age", "DURATION", Kind.TEXT,
            "Oldest incident kept, e.g. 14d (the default), 72h."),
    AUDIT_MAX_SIZE("--audit-max-size", "SIZE", Kind.TEXT,
            "Most the audit log keeps on disk, oldest removed first, e.g. 256MiB (the default)."),
    AUDIT_MAX_AGE("--audit-max-age", "DURATION", Kind.TEXT,
            "Oldest audit record kept, e.g. 14d (the default), 90d."),
    KEEP_CREDENTIALS_OF("--keep-credentials-in-results-of", "TOOL", Kind.REPEATED,
            "Do not redact credentials in this tool's successful results (repeatable): for tools that read "
                    + "files the model edits and writes back, where a redacted token would be written back as "
                    + "its marker.");

    /** What an option takes, and the Java type its value has. */
    enum Kind {
        /** No value: given or not ({@code boolean}). */
        FLAG(Boolean.class),
        /** One value, as written ({@code String}). */
        TEXT(String.class),
        /** One value, a file or directory ({@code Path}). */
        PATH(java.nio.file.Path.class),
        /** One value, a whole number ({@code Integer}). */
        INT(Integer.class),
        /** One value each time, repeatable ({@code List<String>}). */
        REPEATED(List.class);

        final Class<?> type;

        Kind(Class<?> type) {
            this.type = type;
        }
    }

    final String optionName;
    /** The value's name in the help ({@code --name=NAME}); empty for a flag. */
    final String label;
    final Kind kind;
    final String description;
    /** The value when the option is not given; empty if none (the command decides). */
    final Optional<Object> initial;

    WrapOption(String optionName, String label, Kind kind, String description) {
        this(optionName, label, kind, description, null);
    }

    WrapOption(String optionName, String label, Kind kind, String description, Object initial) {
        this.optionName = optionName;
        this.label = label;
        this.kind = kind;
        this.description = description;
        this.initial = Optional.ofNullable(initial != null ? initial
                : kind == Kind.FLAG ? Boolean.FALSE : kind == Kind.REPEATED ? List.of() : null);
    }

    /** Whether the option takes a value (the next word, or after {@code =}). */
    boolean takesValue() {
        return kind != Kind.FLAG;
    }

    /** The option with this name ({@code --name}), if wrap has one. */
    static Optional<WrapOption> named(String name) {
        for (WrapOption option : values()) {
            if (option.optionName.equals(name)) {
                return Optional.of(option);
            }
        }
        return Optional.empty();
    }
}
