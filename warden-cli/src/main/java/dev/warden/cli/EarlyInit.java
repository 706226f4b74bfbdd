package dev.warden.cli;

/**
 * Class initialisation that the first message of {@code warden wrap} (and {@code warden gateway})
 * would otherwise wait for, started on a thread of its own while the main thread builds the gateway. {@link java.math.BigDecimal}'s
 * static initialiser (JDK 25) squares 5 up to 5^65536, tens of milliseconds of interpreted code at
 * the first JSON parse (Jackson's parser holds BigDecimal constants), all of it on the path to the
 * client's first answer. Only JDK classes whose initialisers never reach back into Warden's or a
 * library's are named here, so that two threads initialising at once cannot wait on each other.
 */
final class EarlyInit {

    private EarlyInit() {
    }

    static void start() {
        Thread.ofPlatform().daemon().name("warden-early-init").start(EarlyInit::run);
    }

    private static void run() {
        try {
            Class.forName("java.math.BigDecimal", true, null);
        } catch (ClassNotFoundException | LinkageError e) {
            // the first parse initialises it then, as it would have without this thread
        }
    }
}
