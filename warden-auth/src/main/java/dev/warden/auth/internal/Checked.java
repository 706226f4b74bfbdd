package dev.warden.auth.internal;

import dev.warden.core.identity.Caller;

/** What a check of one credential found: a caller, or why not (for the operator). */
public sealed interface Checked {

    record Ok(Caller caller) implements Checked {
    }

    record Bad(String reason) implements Checked {
    }
}
