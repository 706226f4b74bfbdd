/**
 * Checks of what a server lists (tools, resources, prompts, instructions) without calling it:
 * tool poisoning, hidden Unicode, shadowed names, unannotated destructive tools, and pins of every
 * definition to report those that changed since ("rug pulls").
 */
package dev.warden.audit.definitions;
