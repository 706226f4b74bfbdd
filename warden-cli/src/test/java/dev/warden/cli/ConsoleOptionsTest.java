package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.warden.auth.ApiKeys;
import dev.warden.auth.ResourceServer;
import dev.warden.core.identity.Authenticator;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --console HOST:PORT} and {@code --console-scope}: what starts, and what is refused before any upstream does. */
class ConsoleOptionsTest {

    private static final ConsoleOptions.AddressConverter ADDRESS = new ConsoleOptions.AddressConverter();

    /** The gateway's auth: one API key with the admin scope. */
    private static Authenticator adminKeys() {
        return ResourceServer.custom().apiKeys(ApiKeys.custom()
                .key("ops", ApiKeys.digest(ApiKeys.newKey()), Set.of("warden:admin")).build()).build();
    }

    @Test
    void anAddressIsHostAndPort() {
        assertThat(ADDRESS.convert("127.0.0.1:0")).isEqualTo(new ConsoleOptions.Address("127.0.0.1", 0));
        assertThat(ADDRESS.convert("[::1]:9100")).isEqualTo(new ConsoleOptions.Address("::1", 9100));
        assertThat(ADDRESS.convert("localhost:65535")).isEqualTo(new ConsoleOptions.Address("localhost", 65535));
        for (String bad : new String[] {"9100", "127.0.0.1", "127.0.0.1:", ":9100", "127.0.0.1:65536", "h:x"}) {
            assertThatThrownBy(() -> ADDRESS.convert(bad)).as(bad).isInstanceOf(CommandLine.TypeConversionException.class)
                    .hasMessageContaining("expected HOST:PORT");
        }
    }

    @Test
    void offUnlessAsked() throws Exception {
        ConsoleOptions none = new ConsoleOptions();
        dev.warden.gateway.auditlog.AuditSink sink = r -> { };

        assertThat(none.audit(sink)).as("no tee without the console").isSameAs(sink);
        assertThat(none.problem(Optional.empty(), Set.of(), false)).isEmpty();
    }

    @Test
    void aHostThatIsNotLoopbackNeedsAuthAndAllowedHosts() {
        ConsoleOptions exposed = new ConsoleOptions();
        exposed.address = new ConsoleOptions.Address("0.0.0.0", 0);
        Authenticator auth = adminKeys();

        assertThat(exposed.problem(Optional.empty(), Set.of("ops.example"), false)).get().asString()
                .startsWith("--console: ").contains("not a loopback address and the gateway has no auth");
        assertThat(exposed.problem(Optional.of(auth), Set.of(), false)).get().asString()
                .contains("http.allowedHosts");
        assertThat(exposed.problem(Optional.of(auth), Set.of("ops.example"), false)).isEmpty();
        assertThat(exposed.problem(Optional.empty(), Set.of("ops.example"), true)).as("--insecure-no-auth").isEmpty();
    }

    @Test
    void theAdminScopeMustBeOneScope() {
        ConsoleOptions console = new ConsoleOptions();
        console.address = new ConsoleOptions.Address("127.0.0.1", 0);
        console.scope = "warden admin";
        Authenticator auth = adminKeys();

        assertThat(console.problem(Optional.of(auth), Set.of(), false)).get().asString().contains("one OAuth scope");
        console.scope = "warden:admin";
        assertThat(console.problem(Optional.of(auth), Set.of(), false)).isEmpty();
    }

    @Test
    void browserSignInNeedsAnIssuerAndTheUrlNeedsAClientId() {
        ConsoleOptions console = new ConsoleOptions();
        console.address = new ConsoleOptions.Address("127.0.0.1", 0);
        console.clientId = "warden-console";
        Authenticator keysOnly = adminKeys();
        assertThat(console.problem(Optional.of(keysOnly), Set.of(), false)).get().asString()
                .startsWith("--console: ").contains("OAuth issuer");

        Authenticator withIssuer = ResourceServer.custom().issuer(dev.warden.auth.Issuer.of(
                java.net.URI.create("https://login.example.com"))).build();
        assertThat(console.problem(Optional.of(withIssuer), Set.of(), false)).isEmpty();

        console.clientId = null;
        console.url = java.net.URI.create("https://console.example.com/");
        assertThat(console.problem(Optional.of(withIssuer), Set.of(), false)).get().asString()
                .contains("needs --console-client-id");
    }

    @Test
    void browserSignInOffLoopbackNeedsTheConsoleUrlAndTheUrlHasNoPath() {
        Authenticator withIssuer = ResourceServer.custom().issuer(dev.warden.auth.Issuer.of(
                java.net.URI.create("https://login.example.com"))).build();
        ConsoleOptions exposed = new ConsoleOptions();
        exposed.address = new ConsoleOptions.Address("0.0.0.0", 0);
        exposed.clientId = "warden-console";
        assertThat(exposed.problem(Optional.of(withIssuer), Set.of("ops.example"), false)).get().asString()
                .as("the redirect URI is never made from a request's Host").contains("--console-url");
        exposed.url = java.net.URI.create("https://ops.example/");
        assertThat(exposed.problem(Optional.of(withIssuer), Set.of("ops.example"), false)).isEmpty();

        exposed.url = java.net.URI.create("https://ops.example/console/");
        assertThat(exposed.problem(Optional.of(withIssuer), Set.of("ops.example"), false)).get().asString()
                .as("a path would be lost from the redirect URI: refused").contains("no path");
    }
}
