/**
 * Stateful sessions: the per-session transport, the session table with its idle order and
 * lifetimes, restore from a sealed copy, and the relay that moves a session between replicas.
 */
package dev.warden.http.server.internal.session;
