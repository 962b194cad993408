package dev.troupe.actor.internal;

import dev.troupe.actor.internal.ref.PromiseActorRef;
import dev.troupe.actor.internal.ref.AbsentActorRef;
import dev.troupe.actor.internal.ref.RootParentRef;
import dev.troupe.actor.internal.ref.DeadLettersRef;
import dev.troupe.actor.internal.config.SelectionSettings;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.ActorSelectionMessage;
import dev.troupe.runtime.spi.LocalActorRefProvider;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Props;
import dev.troupe.actor.internal.routing.DeploymentSections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The engine's {@link LocalActorRefProvider}: the local half of every system, and the whole of a
 * local-only one. Built by {@link ActorSystemImpl#newLocalProvider}; the engine reaches its
 * package-private parts (selection bounds, temporary refs, configured deployments) directly.
 */
final class LocalActorRefProviderImpl implements LocalActorRefProvider {
  private final ActorSystemImpl system;
  private final Address address;
  private final ActorPath rootPath;
  private final ActorPath tempPath;
  private final DeadLettersRef deadLetters;
  private final AtomicLong tempCounter = new AtomicLong();
  private final Map<String, Address> configuredRemoteDeployments;
  private final DetachedActors detached;
  private final SelectionSettings selectionSettings;
  private final SelectionRefusals selectionRefusals;
  private LocalActorRef root; // set once by init(), before the system is handed out
  private LocalActorRef userGuardian;
  private LocalActorRef systemGuardian;
  // Temporary refs by name, only when another provider wraps this one: a reply from another node
  // must find its ask by path, while a local ask never needs the registry (and pays nothing for it).
  private ConcurrentHashMap<String, PromiseActorRef> temps;

  /**
   * A local provider for {@code system} at {@code address}.
   *
   * @param system the system being created
   * @param address its address: {@code troupe://name} for a local-only system, the bound {@code
   *     troupe://name@host:port} for a networked one
   * @throws ConfigurationException if a {@code remote} value in {@code troupe.actor.deployment} is
   *     not an address, or a {@code troupe.actor.selection} bound is not a positive count
   */
  LocalActorRefProviderImpl(ActorSystemImpl system, Address address) {
    this.system = system;
    this.address = address;
    this.rootPath = ActorPath.root(address);
    this.tempPath = rootPath.child("temp");
    this.deadLetters =
        new DeadLettersRef(
            system, rootPath.child("deadLetters"), system.eventStream, system.settings, system::isTerminating, system.log);
    this.configuredRemoteDeployments = remoteDeployments(system.settings().config());
    this.detached = new DetachedActors(system);
    this.selectionSettings = SelectionSettings.from(system.settings().config());
    this.selectionRefusals = new SelectionRefusals(system);
  }

  @Override
  public void init() {
    if (root != null) {
      throw new IllegalStateException("provider of " + system.name() + " already initialized");
    }
    if (system.provider() != this) {
      temps = new ConcurrentHashMap<>();
    }
    RootParentRef rootParent =
        new RootParentRef(
            deadLetters, rootPath.child("bubble-walker"), system::finishTermination, system::isTerminated, system.log);
    Props rootProps = Props.create(Guardians.Root.class);
    root =
        new LocalActorRef(
            system,
            rootPath.withUid(ActorPath.UNDEFINED_UID),
            self ->
                new ActorCell(
                    self,
                    rootParent,
                    rootProps,
                    system.dispatchers.defaultDispatcher(),
                    system.defaultMailbox));
    Props guardian = Props.create(Guardians.Guardian.class);
    userGuardian = (LocalActorRef) root.cell().attachChild(guardian, "user", true);
    systemGuardian = (LocalActorRef) root.cell().attachChild(guardian, "system", true);
    root.cell().start();
  }

  @Override
  public Address address() {
    return address;
  }

  @Override
  public LocalActorRefProviderImpl local() {
    return this;
  }

  @Override
  public LocalActorRef rootGuardian() {
    return root;
  }

  /** @return the user guardian {@code /user} */
  public LocalActorRef guardian() {
    return userGuardian;
  }

  /** @return the system guardian {@code /system} */
  public LocalActorRef systemGuardian() {
    return systemGuardian;
  }

  @Override
  public InternalActorRef deadLetters() {
    return deadLetters;
  }

  DeadLettersRef deadLettersRef() {
    return deadLetters;
  }

  @Override
  public InternalActorRef resolveActorRef(ActorPath path) {
    return path.address().equals(address) ? resolveLocal(path) : new AbsentActorRef(deadLetters, path);
  }

  @Override
  public InternalActorRef resolveLocal(ActorPath path) {
    List<String> elements = path.elements();
    InternalActorRef found = null;
    if (elements.isEmpty()) {
      found = root;
    } else if (elements.size() == 1 && elements.get(0).equals("deadLetters")) {
      found = deadLetters;
    } else if (elements.size() == 2 && elements.get(0).equals("temp")) {
      found = temps == null ? null : temps.get(elements.get(1));
    } else {
      InternalActorRef ref = root;
      for (String e : elements) {
        ActorCell cell = LocalActorRef.cellOf(ref);
        ref = cell == null ? null : cell.childByName(e);
        if (ref == null) {
          break;
        }
      }
      found = ref;
      if (found == null && !detached.isEmpty()) {
        found = detached.find(elements);
      }
    }
    long uid = path.uid();
    if (found == null || (uid != ActorPath.UNDEFINED_UID && found.path().uid() != uid)) {
      return new AbsentActorRef(deadLetters, path);
    }
    return found;
  }

  @Override
  public InternalActorRef rootGuardianAt(Address a) {
    return a.equals(address) ? root : new AbsentActorRef(deadLetters, ActorPath.root(a));
  }

  @Override
  public InternalActorRef actorOf(InternalActorRef parent, Props props, ActorPath path, Address target) {
    throw new ConfigurationException(
        "cannot deploy "
            + path.toStringWithoutAddress()
            + " to "
            + target
            + ": remote deployment needs troupe.actor.provider = remote (and dev.troupe:troupe-remoting"
            + " on the class path); this system's provider is local");
  }

  @Override
  public void shutdown() {
    // nothing of its own: the guardians have stopped, dispatchers are the system's
  }

  @Override
  public InternalActorRef actorOfSupervisedBy(Props props, ActorPath path, InternalActorRef supervisor) {
    if (!path.address().equals(address)) {
      throw new IllegalArgumentException("not a path of " + address + ": " + path);
    }
    return detached.create(props, path, supervisor);
  }

  /** The root guardian's part in termination: stop the detached actors, then call {@code gone}. */
  void stopDetached(Runnable gone) {
    detached.stopAll(gone);
  }

  /** @return what one selection's walk may cost ({@code troupe.actor.selection}) */
  SelectionSettings selectionSettings() {
    return selectionSettings;
  }

  SelectionRefusals selectionRefusals() {
    return selectionRefusals;
  }

  @Override
  public void deliverSelection(ActorSelectionMessage selection, ActorRef sender) {
    new ActorSelectionImpl(system, root, selection.elements()).tell(selection.message(), sender);
  }

  @Override
  public boolean failAsk(ActorRef ref, Supplier<? extends Throwable> why) {
    if (!(ref instanceof PromiseActorRef p) || p.system() != system || p.result.isDone()) {
      return false;
    }
    Throwable cause = why.get();
    try {
      system.dispatcher().execute(() -> p.result.completeExceptionally(cause));
    } catch (RuntimeException rejected) { // shutting down: fail it here
      p.result.completeExceptionally(cause);
    }
    return true;
  }

  /** A new temporary reply ref for an ask, registered by name when other nodes may reply to it. */
  PromiseActorRef newTempRef() {
    String name = "$" + Long.toString(tempCounter.incrementAndGet(), 36);
    PromiseActorRef ref = new PromiseActorRef(deadLetters, tempPath.child(name));
    ConcurrentHashMap<String, PromiseActorRef> t = temps;
    if (t != null) {
      t.put(name, ref);
      ref.result.whenComplete((v, e) -> t.remove(name, ref));
    }
    return ref;
  }

  /**
   * Where the configuration deploys the child at {@code path}, or null: a {@code remote} key in
   * {@code troupe.actor.deployment."/path"} (or the most specific section with wildcards that
   * matches, see {@link DeploymentSections#sectionFor}), for paths below {@code /user}.
   */
  Address configuredDeployment(ActorPath path) {
    if (configuredRemoteDeployments.isEmpty()) {
      return null; // the common case: no lookup at all per actorOf
    }
    List<String> elements = path.elements();
    if (elements.size() < 2 || !elements.get(0).equals("user")) {
      return null;
    }
    String section = DeploymentSections.sectionFor(configuredRemoteDeployments.keySet(), DeploymentSections.deploymentPath(path));
    return section == null ? null : configuredRemoteDeployments.get(section);
  }

  /** Reads every {@code remote} key of {@code troupe.actor.deployment} once, at system start. */
  private static Map<String, Address> remoteDeployments(Config config) {
    String root = DeploymentSections.ROOT;
    if (!config.hasPath(root)) {
      return Map.of();
    }
    Map<String, Address> out = new HashMap<>();
    for (Map.Entry<String, ConfigValue> e : config.getObject(root).entrySet()) {
      String section = e.getKey();
      if (section.equals("default") || e.getValue().valueType() != ConfigValueType.OBJECT) {
        continue;
      }
      String key = ConfigUtil.joinPath("troupe", "actor", "deployment", section, "remote");
      if (!config.hasPath(key)) {
        continue;
      }
      String text;
      try {
        text = config.getString(key);
      } catch (ConfigException ex) {
        throw new ConfigurationException("invalid configuration value at '" + key + "': " + ex.getMessage(), ex);
      }
      try {
        out.put(section, Address.parse(text));
      } catch (IllegalArgumentException ex) {
        throw new ConfigurationException("invalid configuration value at '" + key + "': " + ex.getMessage(), ex);
      }
    }
    return Map.copyOf(out);
  }
}
