/**
 * Who is calling: {@link dev.warden.auth.ResourceServer}, an OAuth 2.1 resource server and API
 * keys behind core's {@link dev.warden.core.identity.Authenticator}, and the reader of the
 * configuration's {@code auth:} section.
 */
module dev.warden.auth {
    requires transitive dev.warden.core;
    requires com.nimbusds.jose.jwt;
    // ResourceServer.Builder.httpClient takes the caller's client.
    requires transitive java.net.http;
    requires tools.jackson.dataformat.yaml;

    exports dev.warden.auth;
}
