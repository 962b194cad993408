package dev.troupe.routing;

/**
 * Messages handled by the router itself rather than routed: they go through the router actor's
 * mailbox, in order with each other.
 */
public sealed interface RouterManagementMessage permits GetRoutees, AddRoutee, RemoveRoutee, AdjustPoolSize {}
