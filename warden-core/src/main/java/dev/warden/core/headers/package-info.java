/**
 * The {@code Mcp-Param-*} HTTP headers of 2026-07-28 ({@code x-mcp-header} annotations in a
 * tool's input schema): which arguments a request mirrors into headers, their encoding and the
 * check that headers and body agree. Above {@code error} (its refusal is a Warden exception) and
 * {@code mcp} (the wire records it reads), so neither depends on it.
 */
package dev.warden.core.headers;
