package dev.warden.http.server.internal.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.cluster.InProcessReplicas;
import dev.warden.core.cluster.ReplicaBus;
import dev.warden.core.jsonrpc.RequestId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a stream id says: nothing more than before in one process; its replica and requests among replicas. */
class StreamIdsTest {

    @Test
    void inOneProcessTheIdsAreAsBefore() {
        String prefix = StreamIds.portablePrefix(ReplicaBus.none(), "tAg_-123");
        assertThat(StreamIds.stream(prefix, 3, List.of(RequestId.of(7)))).isEqualTo("tAg_-123-3");
        assertThat(StreamIds.standalone(prefix, 4)).isEqualTo("tAg_-123-g4");
        assertThat(StreamIds.parse("tAg_-123-3")).isEmpty();
    }

    @Test
    void amongReplicasAStreamIdNamesItsReplicaAndItsRequests() {
        String prefix = StreamIds.portablePrefix(InProcessReplicas.hub().join("gw.1"), "tAg_-123");
        String id = StreamIds.stream(prefix, 3, List.of(RequestId.of(7), RequestId.of("x")));
        StreamIds.Served served = StreamIds.parse(id).orElseThrow();
        assertThat(served.replica()).isEqualTo("gw.1");
        assertThat(served.requests()).containsExactly(RequestId.of(7), RequestId.of("x"));
    }

    @Test
    void aSingleRequestStreamIdIsShort() {
        String prefix = StreamIds.portablePrefix(InProcessReplicas.hub().join("a1b2c3d4e5"), "tAg_-123");
        assertThat(StreamIds.stream(prefix, 12, List.of(RequestId.of(42)))).isEqualTo("a1b2c3d4e5.tAg_-123-12.WzQyXQ");
    }

    @Test
    void aGetStreamCarriesNoRequest() {
        String prefix = StreamIds.portablePrefix(InProcessReplicas.hub().join("a"), "t");
        StreamIds.Served served = StreamIds.parse(StreamIds.standalone(prefix, 2)).orElseThrow();
        assertThat(served.replica()).isEqualTo("a");
        assertThat(served.requests()).isEmpty();
    }

    @Test
    void manyLongIdsAreNotCarried() {
        String prefix = StreamIds.portablePrefix(InProcessReplicas.hub().join("a"), "t");
        List<RequestId> many = java.util.stream.IntStream.range(0, 100).mapToObj(i -> RequestId.of("request-" + i)).toList();
        String id = StreamIds.stream(prefix, 1, many);
        assertThat(id).isEqualTo("a.t-1.");
        assertThat(StreamIds.parse(id).orElseThrow().requests()).isEmpty();
    }

    @Test
    void whatIsNotOneOfOursSaysNothing() {
        assertThat(StreamIds.parse("a.t-1.not base64!")).isEmpty();
        assertThat(StreamIds.parse("a.t-1.e30")).isEmpty(); // {} is not a list of ids
        assertThat(StreamIds.parse(".t-1.WzQyXQ")).isEmpty();
        assertThat(StreamIds.parse("a b.t-1.WzQyXQ")).isEmpty();
        assertThat(StreamIds.parse("WzQyXQ")).isEmpty();
    }
}
