/** Test support shared by the modules' tests. */
module dev.warden.testkit {
    requires transitive org.junit.jupiter.api;

    exports dev.warden.testkit;
}
