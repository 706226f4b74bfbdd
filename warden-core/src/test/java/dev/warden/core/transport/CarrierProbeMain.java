package dev.warden.core.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Run in a JVM with one carrier: starts eight children that hold stderr open and never write, then
 * asks a virtual thread to run. Prints whether it did, and ends the children.
 */
public final class CarrierProbeMain {

    private CarrierProbeMain() {
    }

    public static void main(String[] args) throws Exception {
        List<ProcessTransport> children = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            children.add(ProcessTransport.launch(List.of("sleep", "1000"), Map.of(), Optional.empty(), line -> { }));
        }
        CountDownLatch ran = new CountDownLatch(1);
        Thread.ofVirtual().start(ran::countDown);
        boolean ok = ran.await(20, TimeUnit.SECONDS);
        System.out.println(ok ? "a virtual thread ran" : "no virtual thread could run");
        System.out.flush();
        for (ProcessTransport child : children) {
            Thread.ofPlatform().daemon().start(child::close);
        }
        for (ProcessTransport child : children) {
            ProcessHandle.of(child.pid()).ifPresent(ProcessHandle::destroyForcibly);
        }
        System.exit(ok ? 0 : 1);
    }
}
