/**
 * Typed actors for Troupe: {@code Behavior<T>}, {@code ActorRef<T>}, {@code ActorSystem<T>}, the
 * Java DSL ({@code Behaviors}, {@code AbstractBehavior}, {@code ActorContext}, {@code AskPattern},
 * {@code Adapter}) and the receptionist, over the classic runtime (a typed actor runs in an ordinary
 * cell).
 *
 * <p>The internal package is exported only to the typed testkit, whose synchronous {@code
 * BehaviorTestKit} runs behaviours with the same interpreter, and to the typed cluster, which
 * watches the actor behind a subscriber's ref; the package of reliable delivery's internal wire
 * messages is exported to the typed cluster too, whose serializer writes them between nodes.
 */
// The internal package is exported to modules that depend on this one, so they can never be on this
// module's compile path: javac's "module not found" warning for that qualified export is expected.
@SuppressWarnings("module")
module dev.troupe.actor.typed {
  requires transitive dev.troupe.actor;
  requires transitive org.slf4j;
  // The engine the typed systems run on: found through ServiceLoader by the API, required so that
  // it is always in the module graph of an application that uses typed actors.
  requires dev.troupe.runtime;

  exports dev.troupe.actor.typed;
  exports dev.troupe.actor.typed.javadsl;
  exports dev.troupe.actor.typed.receptionist;
  exports dev.troupe.actor.typed.pubsub;
  exports dev.troupe.actor.typed.eventstream;
  exports dev.troupe.actor.typed.delivery;
  // the typed cluster drops the subscriptions of refs that died (ActorRefAdapter.lifeOf)
  exports dev.troupe.actor.typed.internal to dev.troupe.testkit.typed, dev.troupe.cluster.typed;
  // the typed cluster's serializer writes Request, Resend and Ack between nodes
  exports dev.troupe.actor.typed.delivery.internal to dev.troupe.cluster.typed;

  // Props.create(Class, Creator) in dev.troupe.actor instantiates the actor that runs a behaviour.
  opens dev.troupe.actor.typed.internal to dev.troupe.actor;

  // Remoting sends a typed ref as its classic ref's path, and wraps the ref it reads back.
  provides dev.troupe.actor.spi.ClassicRefView with
      dev.troupe.actor.typed.internal.TypedRefView;

  // A module may replace the receptionist through this seam.
  uses dev.troupe.actor.typed.receptionist.ReceptionistFactory;
  // The cluster module's directory of the other nodes' service instances: the built-in receptionist
  // is cluster-wide with it.
  uses dev.troupe.actor.spi.ServiceDirectory;
}
