package dev.troupe.actor;

/** Marks messages that do not reset the receiver's receive timeout (e.g. periodic ticks). */
public interface NotInfluenceReceiveTimeout {}
