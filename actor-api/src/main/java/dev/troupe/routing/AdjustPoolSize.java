package dev.troupe.routing;

/**
 * Grows (positive {@code change}) or shrinks (negative) a pool by that many routees; removed
 * routees are stopped after the messages already in their mailboxes. Groups ignore it.
 *
 * @param change the size change
 */
public record AdjustPoolSize(int change) implements RouterManagementMessage {}
