package dev.warden.gateway.internal.access;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The gateway's authorization rules, shared by every connection ({@link CallerAccess} applies them
 * to one caller). A rule that fails at run time counts as false; why is told to the operator once
 * per rule and message (the log), never to the peer.
 */
public final class AccessPolicy {

    private static final System.Logger LOG = System.getLogger(AccessPolicy.class.getName());
    /** Failures told at most: a rule failing for each of a million subjects is one line per message. */
    private static final int MAX_TOLD = 256;

    private final AccessRules rules;
    private final Set<String> told = ConcurrentHashMap.newKeySet();

    public AccessPolicy(AccessRules rules) {
        this.rules = rules;
    }

    AccessRules rules() {
        return rules;
    }

    /** A rule failed at run time: said once, with the rule as written and CEL's message. */
    void failed(int rule, String message) {
        String key = rule + " " + message;
        if (told.size() < MAX_TOLD && told.add(key)) {
            LOG.log(System.Logger.Level.WARNING, "access.rules[{0}] ({1}) failed and counted as false: {2}", rule,
                    rules.sources().get(rule), message);
        }
    }
}
