package dev.warden.audit;

/** How much a finding matters; {@code --fail-on} compares against it. Declared from the worst. */
public enum Severity {
    HIGH("error"), MEDIUM("warning"), LOW("note"), NOTE("none");

    private final String sarifLevel;

    Severity(String sarifLevel) {
        this.sarifLevel = sarifLevel;
    }

    /** SARIF 2.1.0's {@code level} for a result of this severity. */
    public String sarifLevel() {
        return sarifLevel;
    }

    /** Whether this is at least as bad as {@code other}. */
    public boolean atLeast(Severity other) {
        return compareTo(other) <= 0;
    }
}
