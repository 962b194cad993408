package dev.troupe.actor.internal.telemetry;

import dev.troupe.actor.Telemetry.ActorClassStats;
import dev.troupe.actor.Telemetry.ActorStats;
import dev.troupe.actor.Telemetry.DispatcherStats;
import dev.troupe.actor.Telemetry.Snapshot;
import dev.troupe.actor.Telemetry.Summary;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes a system's telemetry as MBeans on the platform MBean server, under {@code
 * dev.troupe:type=System|Dispatcher|ActorClass|Actor,system=<key>[,name=<id, class or path>]}.
 *
 * <p>{@code <key>} is the system's name, or {@code <name>-2}, {@code -3}, … when a system of that
 * name already has MBeans in this JVM (tests run hundreds of systems named alike): the System MBean
 * is registered first and claims the key. Every MBean of the system is unregistered when it
 * terminates. Attributes are read from the telemetry when asked (a {@link DynamicMBean}: no
 * interface of ours needs exporting to {@code java.management}); they are all {@code long}.
 */
final class TelemetryJmx {
  private static final Logger LOG = LoggerFactory.getLogger(TelemetryJmx.class);
  static final String DOMAIN = "dev.troupe";

  private final SystemTelemetry telemetry;
  private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
  private final List<Runnable> pending = new ArrayList<>(); // guarded by this, until started
  private final List<ObjectName> registered = new ArrayList<>(); // guarded by this
  private String key; // guarded by this; null until started
  private boolean closed; // guarded by this

  TelemetryJmx(SystemTelemetry telemetry) {
    this.telemetry = telemetry;
  }

  synchronized void start() {
    if (key != null || closed) {
      return;
    }
    for (int n = 1; ; n++) {
      String candidate = n == 1 ? telemetry.systemName : telemetry.systemName + "-" + n;
      try {
        ObjectName name = name("System", candidate, null);
        server.registerMBean(new Bean("Troupe actor system telemetry", this::systemAttributes), name);
        registered.add(name);
        key = candidate;
        break;
      } catch (InstanceAlreadyExistsException taken) {
        // another system of this name has MBeans: try the next suffix
      } catch (JMException e) {
        LOG.warn("telemetry MBeans of actor system {} not registered", telemetry.systemName, e);
        closed = true;
        return;
      }
    }
    for (Runnable r : pending) {
      r.run();
    }
    pending.clear();
  }

  synchronized void dispatcherAdded(String id) {
    later(
        () ->
            register(
                "Dispatcher",
                id,
                new Bean("Troupe dispatcher " + id, () -> dispatcherAttributes(id))));
  }

  synchronized void actorClassAdded(String className) {
    later(
        () ->
            register(
                "ActorClass",
                className,
                new Bean("Troupe actor class " + className, () -> classAttributes(className))));
  }

  synchronized void actorAdded(String path) {
    later(() -> register("Actor", path, new Bean("Troupe actor " + path, () -> actorAttributes(path))));
  }

  synchronized void actorRemoved(String path) {
    if (key == null) {
      pending.add(() -> unregister(name("Actor", key, path)));
    } else if (!closed) {
      unregister(name("Actor", key, path));
    }
  }

  synchronized void close() {
    closed = true;
    pending.clear();
    for (ObjectName n : registered) {
      try {
        server.unregisterMBean(n);
      } catch (InstanceNotFoundException gone) {
        // already unregistered
      } catch (JMException e) {
        LOG.warn("telemetry MBean {} not unregistered", n, e);
      }
    }
    registered.clear();
  }

  /** @return the names registered for this system, for tests */
  synchronized List<ObjectName> registered() {
    return List.copyOf(registered);
  }

  private void later(Runnable r) {
    if (closed) {
      return;
    }
    if (key == null) {
      pending.add(r);
    } else {
      r.run();
    }
  }

  private void register(String type, String id, Bean bean) {
    ObjectName n = name(type, key, id);
    try {
      server.registerMBean(bean, n);
      registered.add(n);
    } catch (JMException e) {
      LOG.warn("telemetry MBean {} not registered", n, e);
    }
  }

  private void unregister(ObjectName n) {
    if (registered.remove(n)) {
      try {
        server.unregisterMBean(n);
      } catch (JMException e) {
        LOG.debug("telemetry MBean {} not unregistered", n, e);
      }
    }
  }

  /**
   * @param type the MBean type
   * @param system the system's key
   * @param id the name key's value, or null for none
   * @return the name
   */
  static ObjectName name(String type, String system, String id) {
    StringBuilder s = new StringBuilder(DOMAIN).append(":type=").append(type);
    s.append(",system=").append(value(system));
    if (id != null) {
      s.append(",name=").append(value(id));
    }
    try {
      return new ObjectName(s.toString());
    } catch (JMException e) {
      throw new IllegalArgumentException("not a valid MBean name: " + s, e);
    }
  }

  private static String value(String v) {
    for (int i = 0; i < v.length(); i++) {
      if (",=:\"*?\n\\".indexOf(v.charAt(i)) >= 0) {
        return ObjectName.quote(v);
      }
    }
    return v;
  }

  // ---------------------------------------------------------------- attributes

  private Map<String, Object> systemAttributes() {
    Snapshot s = telemetry.snapshot();
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("DeadLetters", s.deadLetters());
    a.put("Restarts", s.restarts());
    a.put("Dispatchers", (long) s.dispatchers().size());
    a.put("ActorClasses", (long) s.actorClasses().size());
    a.put("SampleEvery", (long) s.sampleEvery());
    return a;
  }

  private Map<String, Object> dispatcherAttributes(String id) {
    DispatcherStats d = telemetry.dispatcherStats(id);
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("MessagesProcessed", d == null ? 0L : d.messagesProcessed());
    a.put("MailboxRuns", d == null ? 0L : d.mailboxRuns());
    summary(a, "SchedulingDelay", "Nanos", d == null ? Summary.EMPTY : d.schedulingDelay());
    summary(a, "ProcessingTime", "Nanos", d == null ? Summary.EMPTY : d.processingTime());
    summary(a, "MailboxDepth", "", d == null ? Summary.EMPTY : d.mailboxDepth());
    return a;
  }

  private Map<String, Object> classAttributes(String className) {
    ActorClassStats c = null;
    for (ActorClassStats x : telemetry.snapshot().actorClasses()) {
      if (x.className().equals(className)) {
        c = x;
      }
    }
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("MessagesProcessed", c == null ? 0L : c.messagesProcessed());
    a.put("Restarts", c == null ? 0L : c.restarts());
    summary(a, "ProcessingTime", "Nanos", c == null ? Summary.EMPTY : c.processingTime());
    return a;
  }

  private Map<String, Object> actorAttributes(String path) {
    ActorStats s = telemetry.actorStats(path);
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("MessagesProcessed", s == null ? 0L : s.messagesProcessed());
    a.put("MailboxRuns", s == null ? 0L : s.mailboxRuns());
    a.put("Restarts", s == null ? 0L : s.restarts());
    summary(a, "SchedulingDelay", "Nanos", s == null ? Summary.EMPTY : s.schedulingDelay());
    summary(a, "ProcessingTime", "Nanos", s == null ? Summary.EMPTY : s.processingTime());
    summary(a, "MailboxDepth", "", s == null ? Summary.EMPTY : s.mailboxDepth());
    return a;
  }

  private static void summary(Map<String, Object> a, String prefix, String unit, Summary s) {
    a.put(prefix + "Samples", s.samples());
    a.put(prefix + "P50" + unit, s.p50());
    a.put(prefix + "P90" + unit, s.p90());
    a.put(prefix + "P99" + unit, s.p99());
    a.put(prefix + "Max" + unit, s.max());
  }

  /** A read-only MBean whose attributes, all longs, are computed on each read. */
  private static final class Bean implements DynamicMBean {
    private final String description;
    private final Supplier<Map<String, Object>> attributes;
    private final MBeanInfo info;

    Bean(String description, Supplier<Map<String, Object>> attributes) {
      this.description = description;
      this.attributes = attributes;
      List<MBeanAttributeInfo> infos = new ArrayList<>();
      for (String n : attributes.get().keySet()) {
        infos.add(new MBeanAttributeInfo(n, "long", n, true, false, false));
      }
      this.info =
          new MBeanInfo(
              Bean.class.getName(),
              description,
              infos.toArray(new MBeanAttributeInfo[0]),
              null,
              null,
              null);
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
      Object v = attributes.get().get(attribute);
      if (v == null) {
        throw new AttributeNotFoundException(attribute + " is not an attribute of " + description);
      }
      return v;
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
      throw new AttributeNotFoundException(description + " has no writable attribute");
    }

    @Override
    public AttributeList getAttributes(String[] names) {
      Map<String, Object> all = attributes.get();
      AttributeList list = new AttributeList();
      for (String n : names) {
        Object v = all.get(n);
        if (v != null) {
          list.add(new Attribute(n, v));
        }
      }
      return list;
    }

    @Override
    public AttributeList setAttributes(AttributeList list) {
      return new AttributeList();
    }

    @Override
    public Object invoke(String action, Object[] params, String[] signature) {
      throw new UnsupportedOperationException(description + " has no operations");
    }

    @Override
    public MBeanInfo getMBeanInfo() {
      return info;
    }
  }
}
