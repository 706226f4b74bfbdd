package dev.warden.audit.report;

import com.contrastsecurity.sarif.MultiformatMessageString;
import com.contrastsecurity.sarif.PropertyBag;
import com.contrastsecurity.sarif.ReportingConfiguration;
import com.contrastsecurity.sarif.ReportingDescriptor;
import dev.warden.audit.Rule;
import dev.warden.audit.Severity;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * SARIF's {@code reportingDescriptor} of every {@link Rule}, in declaration order (a result's
 * {@code ruleIndex} is its rule's ordinal). The tags and {@code security-severity} are what GitHub's
 * code scanning reads to label an alert a security one and rank it; {@code external/cwe/cwe-N} is
 * the tag form it shows as a CWE.
 */
final class SarifRules {

    private SarifRules() {
    }

    static Set<ReportingDescriptor> all() {
        Set<ReportingDescriptor> rules = new LinkedHashSet<>();
        for (Rule rule : Rule.values()) {
            rules.add(descriptor(rule));
        }
        return rules;
    }

    private static ReportingDescriptor descriptor(Rule rule) {
        String cwe = "CWE-" + rule.cwe();
        PropertyBag properties = new PropertyBag()
                .withTags(new LinkedHashSet<>(List.of("security", cwe, "external/cwe/cwe-" + rule.cwe())))
                .withAdditionalProperty("cwe", cwe)
                .withAdditionalProperty("security-severity", securitySeverity(rule.severity()))
                .withAdditionalProperty("precision", "high");
        return new ReportingDescriptor()
                .withId(rule.id())
                .withName(name(rule))
                .withShortDescription(new MultiformatMessageString().withText(rule.title()))
                .withFullDescription(new MultiformatMessageString().withText(rule.title() + " (" + cwe + ")."))
                .withHelp(new MultiformatMessageString()
                        .withText(rule.remediation())
                        .withMarkdown("**" + cwe + "**: " + rule.remediation()))
                .withDefaultConfiguration(new ReportingConfiguration()
                        .withLevel(ReportingConfiguration.Level.fromValue(rule.severity().sarifLevel())))
                .withProperties(properties);
    }

    /** {@code LEAK_STACK_TRACE} → {@code LeakStackTrace}: SARIF's rule name is an identifier, not prose. */
    static String name(Rule rule) {
        StringBuilder out = new StringBuilder();
        for (String word : rule.name().split("_")) {
            out.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
        }
        return out.toString();
    }

    /** GitHub's bands: 7.0-8.9 high, 4.0-6.9 medium, 0.1-3.9 low. */
    private static String securitySeverity(Severity severity) {
        return switch (severity) {
            case HIGH -> "8.0";
            case MEDIUM -> "5.5";
            case LOW -> "3.0";
            case NOTE -> "0.0";
        };
    }
}
