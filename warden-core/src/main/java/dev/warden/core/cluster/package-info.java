/**
 * The other replicas of one deployment, for what a single process cannot keep to itself once a
 * load balancer spreads one client's requests over several: small messages to one replica or to
 * all ({@link dev.warden.core.cluster.ReplicaBus}), asks that wait for an answer
 * ({@link dev.warden.core.cluster.ReplicaCalls}), and a few shared facts with an expiry. The
 * single-process default is {@link dev.warden.core.cluster.ReplicaBus#none()}: no other replica.
 * warden-store-redis implements the bus on Redis; {@link dev.warden.core.cluster.InProcessReplicas}
 * joins several in one JVM (embedding, tests).
 */
package dev.warden.core.cluster;
