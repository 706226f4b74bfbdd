package dev.warden.bench.load;

import java.net.URI;

/**
 * One thing done again and again against an MCP endpoint, one at a time, for counting what each
 * costs the server from outside (its system calls with {@code strace -f -c -p PID}, its CPU time
 * from /proc) rather than timing it: {@code sessions} opens and closes new sessions (initialize,
 * notifications/initialized, DELETE), {@code echo} and {@code failing} make calls on one session
 * (the calls of {@link McpHttpLoad#CALLS}). Prints how many, nothing else.
 *
 * <p>Usage: {@code McpHttpRepeat URL sessions|echo|failing COUNT}.
 */
public final class McpHttpRepeat {

    private McpHttpRepeat() {
    }

    public static void main(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        String what = args[1];
        int count = Integer.parseInt(args[2]);
        McpHttp client = new McpHttp();
        if (what.equals("sessions")) {
            for (int i = 0; i < count; i++) {
                client.close(url, client.open(url));
            }
        } else {
            String call = McpHttpLoad.CALLS.get(what);
            if (call == null) {
                throw new IllegalArgumentException("sessions, echo or failing, not " + what);
            }
            String session = client.open(url);
            for (int i = 0; i < count; i++) {
                long id = i + 2;
                client.send(url, session, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":"
                        + call + "}", id);
            }
            client.close(url, session);
        }
        System.out.println(count + " " + what);
    }
}
