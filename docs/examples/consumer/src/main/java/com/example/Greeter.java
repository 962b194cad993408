package com.example;

import dev.troupe.actor.AbstractActor;

/** Answers a name with a greeting: the smallest actor a project built from the README's snippet runs. */
public final class Greeter extends AbstractActor {
  @Override
  public Receive createReceive() {
    return receiveBuilder().match(String.class, who -> getSender().tell("Hello, " + who, getSelf())).build();
  }
}
