/**
 * OAuth metadata as both sides of Warden find it: where RFC 8414 (and OpenID Connect Discovery)
 * and RFC 9728 put it, the walk over those locations with the issuer check, and the one bounded
 * HTTP helper the resource server and the client reach authorization servers with.
 */
package dev.warden.core.oauth;
