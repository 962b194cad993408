package dev.troupe.actor;

import dev.troupe.routing.RouterConfig;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * An immutable recipe for an actor: how to create instances (a constructor and its arguments, or a
 * {@link Creator}), and where it runs (dispatcher, mailbox, deployment).
 *
 * <p>{@link #create(Class, Object...)} finds the constructor when the props are created, so a
 * wrong argument list fails at the call, not later inside the actor system.
 */
public final class Props {
  private final Class<? extends Actor> actorClass;
  private final Creator<? extends Actor> creator; // null when a constructor is used
  private final Constructor<? extends Actor> constructor; // null when a creator is used
  private final Object[] args;
  private final String dispatcher; // null = the default dispatcher
  private final String mailbox; // null = the dispatcher's or default mailbox
  private final Deploy deploy;
  private final RouterConfig routerConfig; // null = not a router
  private String telemetryClassName; // computed on first use (telemetry only)

  private Props(
      Class<? extends Actor> actorClass,
      Creator<? extends Actor> creator,
      Constructor<? extends Actor> constructor,
      Object[] args,
      String dispatcher,
      String mailbox,
      Deploy deploy,
      RouterConfig routerConfig) {
    this.actorClass = actorClass;
    this.creator = creator;
    this.constructor = constructor;
    this.args = args;
    this.dispatcher = dispatcher;
    this.mailbox = mailbox;
    this.deploy = deploy;
    this.routerConfig = routerConfig;
  }

  /**
   * Props that create instances with the constructor of {@code actorClass} matching {@code args}.
   *
   * @param actorClass a concrete actor class; if nested, it must be static
   * @param args constructor arguments ({@code null} matches any reference parameter)
   * @param <T> the actor type
   * @return the props
   * @throws IllegalArgumentException naming the class, the argument types and the constructors
   *     that exist (with their parameter types) if no single constructor matches, or if the class
   *     is abstract or a non-static inner class
   */
  public static <T extends Actor> Props create(Class<T> actorClass, Object... args) {
    Objects.requireNonNull(actorClass, "actorClass");
    Object[] a = args == null ? new Object[] {null} : args.clone();
    if (Modifier.isAbstract(actorClass.getModifiers())) {
      throw new IllegalArgumentException(
          "cannot create actor " + actorClass.getName() + ": the class is abstract");
    }
    if (actorClass.getEnclosingClass() != null && !Modifier.isStatic(actorClass.getModifiers())) {
      throw new IllegalArgumentException(
          "cannot create actor "
              + actorClass.getName()
              + ": it is a non-static inner class; declare it static");
    }
    Constructor<T> ctor = findConstructor(actorClass, a);
    return new Props(actorClass, null, ctor, a, null, null, Deploy.local(), null);
  }

  /**
   * Props that create instances with a {@link Creator}, called once per incarnation.
   *
   * @param actorClass the class the creator returns
   * @param creator the factory; it must not close over an enclosing actor instance, which would
   *     leak that actor's state to another thread
   * @param <T> the actor type
   * @return the props
   * @throws IllegalArgumentException if the creator captures an actor
   */
  public static <T extends Actor> Props create(Class<T> actorClass, Creator<T> creator) {
    Objects.requireNonNull(actorClass, "actorClass");
    Objects.requireNonNull(creator, "creator");
    for (Field f : creator.getClass().getDeclaredFields()) {
      if (Actor.class.isAssignableFrom(f.getType())) {
        throw new IllegalArgumentException(
            "the Creator for "
                + actorClass.getName()
                + " closes over an enclosing actor ("
                + f.getType().getName()
                + "); create it from a static method instead");
      }
    }
    return new Props(actorClass, creator, null, new Object[0], null, null, Deploy.local(), null);
  }

  private static <T> Constructor<T> findConstructor(Class<T> type, Object[] args) {
    List<Constructor<?>> matches = new ArrayList<>();
    for (Constructor<?> c : type.getDeclaredConstructors()) {
      if (accepts(c.getParameterTypes(), args)) {
        matches.add(c);
      }
    }
    if (matches.size() != 1) {
      String why = matches.isEmpty() ? "no constructor matches" : "ambiguous constructors match";
      throw new IllegalArgumentException(
          "cannot create actor "
              + type.getName()
              + ": "
              + why
              + " arguments "
              + describe(args)
              + "; its constructors: "
              + constructors(matches.isEmpty() ? List.of(type.getDeclaredConstructors()) : matches));
    }
    @SuppressWarnings("unchecked")
    Constructor<T> c = (Constructor<T>) matches.get(0);
    c.setAccessible(true); // private nested actor classes are common in tests and samples
    return c;
  }

  private static boolean accepts(Class<?>[] params, Object[] args) {
    if (params.length != args.length) {
      return false;
    }
    for (int i = 0; i < params.length; i++) {
      Class<?> p = params[i];
      Object a = args[i];
      if (a == null) {
        if (p.isPrimitive()) {
          return false;
        }
      } else if (!box(p).isInstance(a)) {
        return false;
      }
    }
    return true;
  }

  private static Class<?> box(Class<?> t) {
    if (!t.isPrimitive()) {
      return t;
    }
    if (t == int.class) {
      return Integer.class;
    } else if (t == long.class) {
      return Long.class;
    } else if (t == boolean.class) {
      return Boolean.class;
    } else if (t == double.class) {
      return Double.class;
    } else if (t == float.class) {
      return Float.class;
    } else if (t == short.class) {
      return Short.class;
    } else if (t == byte.class) {
      return Byte.class;
    }
    return Character.class;
  }

  /** @return e.g. {@code (java.lang.String), (long, java.util.List)} */
  private static String constructors(List<Constructor<?>> constructors) {
    StringJoiner all = new StringJoiner(", ");
    for (Constructor<?> c : constructors) {
      StringJoiner params = new StringJoiner(", ", "(", ")");
      for (Class<?> p : c.getParameterTypes()) {
        params.add(p.getTypeName());
      }
      all.add(params.toString());
    }
    return all.toString();
  }

  private static String describe(Object[] args) {
    String[] types = new String[args.length];
    for (int i = 0; i < args.length; i++) {
      types[i] = args[i] == null ? "null" : args[i].getClass().getName();
    }
    return Arrays.toString(types);
  }

  /**
   * Creates a new instance. Called by the runtime on the actor's thread while its cell is being
   * initialized; anywhere else the actor's constructor fails.
   *
   * @return the instance
   * @throws Exception whatever the constructor or creator threw
   */
  public Actor newActor() throws Exception {
    if (creator != null) {
      Actor a = creator.create();
      if (a == null) {
        throw new IllegalStateException("the Creator for " + actorClass.getName() + " returned null");
      }
      return a;
    }
    try {
      return constructor.newInstance(args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception ex) {
        throw ex;
      }
      throw e;
    }
  }

  /**
   * These props on another dispatcher.
   *
   * @param dispatcherId a config path of a dispatcher section, e.g. {@code my-dispatcher}
   * @return new props
   */
  public Props withDispatcher(String dispatcherId) {
    Objects.requireNonNull(dispatcherId, "dispatcherId");
    return new Props(
        actorClass, creator, constructor, args, dispatcherId, mailbox, deploy, routerConfig);
  }

  /**
   * These props with another mailbox.
   *
   * @param mailboxId a config path of a mailbox section, e.g. {@code bounded-mailbox}
   * @return new props
   */
  public Props withMailbox(String mailboxId) {
    Objects.requireNonNull(mailboxId, "mailboxId");
    return new Props(
        actorClass, creator, constructor, args, dispatcher, mailboxId, deploy, routerConfig);
  }

  /**
   * These props with another deployment.
   *
   * @param newDeploy where to deploy
   * @return new props
   */
  public Props withDeploy(Deploy newDeploy) {
    Objects.requireNonNull(newDeploy, "deploy");
    return new Props(
        actorClass, creator, constructor, args, dispatcher, mailbox, newDeploy, routerConfig);
  }

  /**
   * These props behind a router: {@code actorOf} then returns a router ref whose routees are
   * created from these props (pools) or looked up by path (groups). The routees use these props'
   * dispatcher and mailbox; the router itself runs on the pool's router dispatcher.
   *
   * <pre>{@code
   * ActorRef workers = system.actorOf(
   *     Props.create(Worker.class).withRouter(new RoundRobinPool(5)), "workers");
   * }</pre>
   *
   * @param router the router, e.g. {@code new RoundRobinPool(5)} or {@code
   *     FromConfig.getInstance()}; {@code null} means no router (plain actor)
   * @return new props
   */
  public Props withRouter(RouterConfig router) {
    return new Props(actorClass, creator, constructor, args, dispatcher, mailbox, deploy, router);
  }

  /** @return the actor class */
  public Class<? extends Actor> actorClass() {
    return actorClass;
  }

  /**
   * The class name under which telemetry counts actors of these props (the {@code actor.class} tag
   * of the metrics, the trace spans' actor class): the actor class's binary name, unless the creator
   * is a {@link dev.troupe.actor.spi.DescribedCreator}, which names what its actors stand for (a
   * typed actor: the class its behaviour was written in).
   *
   * @return a binary class name
   */
  public String telemetryClassName() {
    String n = telemetryClassName; // racy single check: a String is safely published
    if (n == null) {
      n = creator instanceof dev.troupe.actor.spi.DescribedCreator<?> d ? d.describedClassName() : actorClass.getName();
      telemetryClassName = n;
    }
    return n;
  }

  /**
   * Whether instances come from a {@link Creator} rather than a constructor. Such props cannot be
   * sent to another node: remote deployment sends the class name and the constructor arguments.
   *
   * @return true for props made by {@link #create(Class, Creator)}
   */
  public boolean usesCreator() {
    return creator != null;
  }

  /** @return a copy of the constructor arguments (empty with a creator) */
  public Object[] args() {
    return args.clone();
  }

  /** @return the dispatcher id, or {@code null} for the default dispatcher */
  public String dispatcher() {
    return dispatcher;
  }

  /** @return the mailbox id, or {@code null} for the default */
  public String mailbox() {
    return mailbox;
  }

  /** @return the deployment */
  public Deploy deploy() {
    return deploy;
  }

  /** @return the router configuration, or {@code null} if these props create a plain actor */
  public RouterConfig routerConfig() {
    return routerConfig;
  }

  @Override
  public String toString() {
    return "Props["
        + actorClass.getName()
        + (dispatcher == null ? "" : ", dispatcher=" + dispatcher)
        + (mailbox == null ? "" : ", mailbox=" + mailbox)
        + (routerConfig == null ? "" : ", router=" + routerConfig)
        + "]";
  }
}
