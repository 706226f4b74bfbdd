package dev.warden.console.page;

/** The console's pages, as its navigation lists them. */
public enum Tab {
    UPSTREAMS("/", "Upstreams"),
    TOOLS("/tools", "Tools"),
    INCIDENTS("/incidents", "Incidents"),
    AUDIT("/audit", "Audit log"),
    PINS("/pins", "Pins");

    private final String path;
    private final String label;

    Tab(String path, String label) {
        this.path = path;
        this.label = label;
    }

    public String path() {
        return path;
    }

    String label() {
        return label;
    }
}
