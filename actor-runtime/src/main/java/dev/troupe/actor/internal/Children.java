package dev.troupe.actor.internal;

import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.InvalidActorNameException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An actor's children by name. Thread-safe, because top-level actors are created from any thread
 * (under the guardian); a name is reserved before the child exists, so two concurrent creations
 * with one name fail cleanly.
 *
 * <p>An entry is the child's ref until the parent needs supervision state for it (a failure, or
 * a stop it asked for); only then is it replaced by a {@link ChildStats}. Most children never
 * fail, so most cost one map node and no stats object. Stats are created and read on the parent's
 * thread only.
 */
final class Children {
  private static final Object RESERVED = new Object();
  private static final VarHandle NAME_COUNTER;

  static {
    try {
      NAME_COUNTER = MethodHandles.lookup().findVarHandle(Children.class, "nameCounter", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final ConcurrentHashMap<String, Object> byName = new ConcurrentHashMap<>(4);

  @SuppressWarnings("unused") // through NAME_COUNTER: any thread may create a guardian's child
  private volatile long nameCounter;

  /** @return a fresh generated name, {@code $0}, {@code $1}, … in base 36 */
  String nextName() {
    return "$" + Long.toString((long) NAME_COUNTER.getAndAdd(this, 1L), 36);
  }

  void reserve(String name) {
    if (byName.putIfAbsent(name, RESERVED) != null) {
      throw new InvalidActorNameException("actor name [" + name + "] is not unique");
    }
  }

  void unreserve(String name) {
    byName.remove(name, RESERVED);
  }

  void init(String name, InternalActorRef child) {
    byName.put(name, child);
  }

  private static InternalActorRef refOf(Object entry) {
    if (entry instanceof InternalActorRef r) {
      return r;
    }
    return entry instanceof ChildStats s ? s.child : null;
  }

  private static boolean stopping(Object entry) {
    return entry instanceof ChildStats s && s.isStopping();
  }

  /** @return the child with this name, stopping or not, or null */
  InternalActorRef child(String name) {
    return refOf(byName.get(name));
  }

  /** @return the child with this name unless it is stopping, or null */
  InternalActorRef liveChild(String name) {
    Object e = byName.get(name);
    return stopping(e) ? null : refOf(e);
  }

  /** @return whether {@code ref} is exactly this incarnation of one of the children */
  boolean isChild(ActorRef ref) {
    InternalActorRef c = child(ref.path().name());
    return c != null && c.path().uid() == ref.path().uid();
  }

  /**
   * The supervision state of a child, created on first use; parent thread only.
   *
   * @return the stats, or null if {@code ref} is not this incarnation of a child
   */
  ChildStats stats(ActorRef ref) {
    String name = ref.path().name();
    Object e = byName.get(name);
    if (e instanceof ChildStats s) {
      return s.child.path().uid() == ref.path().uid() ? s : null;
    }
    if (e instanceof InternalActorRef r && r.path().uid() == ref.path().uid()) {
      ChildStats s = new ChildStats(r);
      return byName.replace(name, e, s) ? s : stats(ref);
    }
    return null;
  }

  /** Removes this incarnation of a child. @return whether it was one */
  boolean remove(ActorRef ref) {
    String name = ref.path().name();
    Object e = byName.get(name);
    InternalActorRef r = refOf(e);
    return r != null && r.path().uid() == ref.path().uid() && byName.remove(name, e);
  }

  /** @return all children, stopping ones included, a snapshot */
  List<InternalActorRef> refs() {
    return refs(true);
  }

  /** @return the children not being stopped, a snapshot */
  List<InternalActorRef> liveRefs() {
    return refs(false);
  }

  private List<InternalActorRef> refs(boolean includeStopping) {
    List<InternalActorRef> out = new ArrayList<>(byName.size());
    for (Object e : byName.values()) {
      InternalActorRef r = refOf(e);
      if (r != null && (includeStopping || !stopping(e))) {
        out.add(r);
      }
    }
    return out;
  }

  /** @return whether a child the parent asked to stop has not terminated yet */
  boolean anyStopping() {
    for (Object e : byName.values()) {
      if (stopping(e)) {
        return true;
      }
    }
    return false;
  }

  boolean isEmpty() {
    return byName.isEmpty();
  }
}
