package dev.warden.client.auth;

import java.util.Optional;

/**
 * The client's identity at one authorization server: pre-registered, registered dynamically, or a
 * metadata document URL (CIMD). {@code method} is how it authenticates at the token endpoint.
 */
record ClientCredentials(String clientId, Optional<String> secret, Optional<String> method) {

    @Override
    public String toString() {
        return "ClientCredentials[" + clientId + "]"; // the secret stays out of logs
    }
}
