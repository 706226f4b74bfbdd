package dev.warden.cli;

import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * How a command words the help of a shared option ({@link DataDirOption}, {@link IncidentLogOption},
 * {@link MaxMessageBytesOption}) where its meaning there differs (the gateway's file may name a data
 * directory; the demo's log has no retention): called from the command's model transformer, it
 * gives the option the command's own description. An option a command does not reword keeps the
 * mixin's text; names, labels, defaults and parsing are untouched.
 */
final class OwnWording {

    private OwnWording() {
    }

    /** Gives {@code command}'s options these descriptions, by option name; returns it (for a model transformer). */
    static CommandSpec apply(CommandSpec command, Map<String, String> descriptions) {
        for (OptionSpec option : List.copyOf(command.options())) {
            String description = descriptions.get(option.longestName());
            if (description != null) {
                command.remove(option);
                command.addOption(option.toBuilder().description(description).build());
            }
        }
        return command;
    }
}
