package dev.warden.console.feed;

import java.util.List;
import java.util.Objects;

/**
 * One tool of one upstream over the recorder's window (the last hour), minute by minute.
 *
 * @param tool the upstream's own name for it
 * @param minutes one entry per minute, oldest first, the current minute last
 * @param total the whole window in one
 */
public record ToolWindow(String upstream, String tool, List<MinuteStats> minutes, MinuteStats total) {

    public ToolWindow {
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(tool, "tool");
        minutes = List.copyOf(minutes);
        Objects.requireNonNull(total, "total");
    }
}
