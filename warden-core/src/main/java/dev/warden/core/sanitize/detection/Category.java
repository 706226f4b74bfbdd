package dev.warden.core.sanitize.detection;

/** What a finding is, coarsely: the unit recall is measured in and policies are configured by. */
public enum Category {
    STACK_TRACE("stack-trace"),
    FILE_PATH("path"),
    DATABASE("database"),
    SECRET("secret"),
    TOPOLOGY("topology"),
    INJECTION("injection"),
    /** Personal data (emails, card numbers, SSNs, phone numbers): only found when asked for ({@code PiiDetector}). */
    PII("pii");

    private final String label;

    Category(String label) {
        this.label = label;
    }

    /** The lower-case name used in placeholders, JSON and metrics. */
    public String label() {
        return label;
    }
}
