package dev.troupe.guide.pekko;

/** A marker for messages that cross nodes as JSON, as Pekko's Jackson documentation binds one. */
public interface JsonMessage {}
