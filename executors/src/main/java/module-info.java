/** Standalone executor services: the affinity pool, idle strategies and executor factories. */
module dev.troupe.executors {
  requires org.jctools.core;

  exports dev.troupe.executors;
}
