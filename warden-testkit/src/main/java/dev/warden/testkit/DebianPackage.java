package dev.warden.testkit;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A Debian package a test needs, installed with apt-get when missing, so that {@code ./mvnw verify}
 * sets up what its tests need on a fresh machine; a test fails naming the package when it cannot.
 */
final class DebianPackage {

    private DebianPackage() {
    }

    /** Installs {@code name} unless {@code present} already holds; fails if it still does not. */
    static synchronized void require(String name, BooleanSupplier present) {
        if (present.getAsBoolean()) {
            return;
        }
        try {
            new ProcessBuilder("bash", "-c",
                    "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq " + name)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
                    .waitFor(10, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // reported below
        }
        if (!present.getAsBoolean()) {
            throw new IllegalStateException("these tests need Debian's " + name + ", and apt-get could not install "
                    + "it: apt-get install -y " + name);
        }
    }
}
