/**
 * What an operator's console reads of a running gateway: read-only snapshots, made when asked
 * ({@link dev.warden.gateway.Gateway#upstreamStates()}); nothing here changes the gateway.
 */
package dev.warden.gateway.view;
