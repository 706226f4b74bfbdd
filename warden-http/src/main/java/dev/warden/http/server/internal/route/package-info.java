/**
 * The entry points: the Jetty handler that routes POST, GET and DELETE, the POST path, and the
 * health probes. The only package that depends on all the others.
 */
package dev.warden.http.server.internal.route;
