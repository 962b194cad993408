package dev.troupe.cluster.zookeeper;

import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.spi.EngineMember;
import dev.troupe.cluster.spi.MembershipContext;
import dev.troupe.cluster.spi.MembershipListener;
import dev.troupe.cluster.spi.MembershipProvider;
import dev.troupe.cluster.spi.MembershipView;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node of the ZooKeeper engine. {@code join} connects a Curator client, creates this member's
 * ephemeral sequential node (its data: {@link MemberRecord}) and returns; from then on every change
 * of the members' children, and every change of the connection, is handled on the engine's own
 * thread ({@code troupe-cluster-zookeeper-<node>}), one at a time, which is where the listener is
 * called.
 *
 * <p>A view is the children in sequence order (oldest first, the same on every member), reported
 * when it differs from the last one reported; versions count the reports. A suspended connection
 * (the ensemble out of reach, the session perhaps still alive) suspects every other member until it
 * comes back; a lost session (expired: the ensemble has removed this member's node, and the others
 * see it gone) reports a view without this member, after which the engine reports nothing more (a
 * removed incarnation never comes back: the cluster downs this node). {@code leave} deletes the node
 * and closes the client; {@code close} closes the client, which ends the session, so the node goes
 * at once.
 */
final class ZooKeeperMembershipProvider implements MembershipProvider {
  private static final Logger log = LoggerFactory.getLogger(ZooKeeperMembershipProvider.class);

  /**
   * With {@code auth-digest}: every node this engine creates is writable (create, delete, set, admin)
   * only by the identity it authenticated as, and readable by anyone.
   */
  private static final ACLProvider OWNED = new ACLProvider() {
    // ZooKeeper's "auth" scheme: the identities the client authenticated with; "world:anyone": all
    // (not List.of: the client asks the list whether it contains null, which List.of answers with an exception)
    private final List<ACL> acl = java.util.Collections.unmodifiableList(Arrays.asList(
        new ACL(ZooDefs.Perms.ALL, new Id("auth", "")), new ACL(ZooDefs.Perms.READ, new Id("world", "anyone"))));

    @Override
    public List<ACL> getDefaultAcl() {
      return acl;
    }

    @Override
    public List<ACL> getAclForPath(String path) {
      return acl;
    }
  };

  private final MembershipContext context;
  private final ZooKeeperSettings settings;
  private final EngineMember self;
  private final byte[] record;
  private final String membersPath;
  private final String endpoint;
  /** One watcher object, so that the client keeps one watch on the children however often armed. */
  private final CuratorWatcher childrenChanged = event -> {
    if (event.getType() != Watcher.Event.EventType.None) { // not the connection's events: those come as states
      onEngineThread(this::refresh);
    }
  };

  private volatile ExecutorService thread; // set by join
  private volatile CuratorFramework client; // set by join
  private volatile MembershipListener listener;
  private volatile String ownNode;
  private volatile boolean stopped;
  private boolean joined; // join, leave and close are called one at a time

  // The engine thread's own state.
  private final Map<String, EngineMember> byChild = new HashMap<>();
  /** Children whose data is not a member record: left out of views, warned about once. */
  private final Set<String> refused = new java.util.HashSet<>();
  private List<EngineMember> last = List.of();
  private final Set<UniqueAddress> suspected = new LinkedHashSet<>();
  private long version;
  private boolean lost;

  ZooKeeperMembershipProvider(MembershipContext context, ZooKeeperSettings settings) {
    this.context = context;
    this.settings = settings;
    this.self = new EngineMember(context.self(), context.roles());
    this.record = MemberRecord.encode(self);
    this.membersPath = settings.membersPath(context.clusterName());
    String[] servers = settings.connect().split(",");
    for (int i = 0; i < servers.length; i++) {
      servers[i] = servers[i].trim();
    }
    Arrays.sort(servers);
    this.endpoint = "zookeeper:" + String.join(",", servers) + membersPath;
  }

  @Override
  public String join(List<String> seedEndpoints, MembershipListener listener) throws Exception {
    Objects.requireNonNull(listener, "listener");
    for (String e : seedEndpoints) {
      if (!endpoint.equals(e)) {
        throw new IllegalArgumentException("a seed's membership engine is '" + e + "', not this node's '" + endpoint
            + "': every member of a cluster names the same ZooKeeper ensemble (troupe.cluster.zookeeper.connect)"
            + " and root (troupe.cluster.zookeeper.root)");
      }
    }
    if (joined || stopped) {
      throw new IllegalStateException("join is called once per engine");
    }
    String name = "troupe-cluster-zookeeper-" + context.self();
    ExecutorService t = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread th = new Thread(r, name);
      th.setDaemon(true);
      return th;
    });
    int retryBase = (int) Math.max(50, Math.min(1000, settings.sessionTimeout().toMillis() / 10));
    CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
        .connectString(settings.connect())
        .sessionTimeoutMs((int) settings.sessionTimeout().toMillis())
        // Curator wants a connection's wait no longer than the session: a longer one serves joins only
        .connectionTimeoutMs((int) Math.min(settings.connectionTimeout().toMillis(), settings.sessionTimeout().toMillis()))
        .retryPolicy(new RetryNTimes(1, retryBase)); // the engine thread must not wait long: a state change follows
    if (!settings.authDigest().isEmpty()) {
      builder.authorization("digest", settings.authDigest().getBytes(StandardCharsets.UTF_8)).aclProvider(OWNED);
    }
    CuratorFramework c = builder.build();
    try {
      c.start();
      if (!c.blockUntilConnected((int) settings.connectionTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IOException("no server of the ZooKeeper ensemble " + settings.connect() + " answered within "
            + settings.connectionTimeout().toMillis() + " ms (troupe.cluster.zookeeper.connection-timeout)");
      }
      String own = c.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
          .forPath(membersPath + "/m-", record);
      this.thread = t;
      this.client = c;
      this.listener = listener;
      this.ownNode = own;
      joined = true;
    } catch (Exception | Error e) {
      c.close(); // the engine as before the call: the cluster may call join again
      t.shutdown();
      throw e;
    }
    client.getConnectionStateListenable().addListener((cf, state) -> onEngineThread(() -> connection(state)));
    log.debug("{} is {} in {}", context.self(), ownNode, settings.connect());
    onEngineThread(this::refresh);
    return endpoint;
  }

  private void onEngineThread(Runnable r) {
    ExecutorService t = thread;
    if (t == null || stopped) {
      return;
    }
    try {
      t.execute(() -> {
        if (!stopped) {
          r.run();
        }
      });
    } catch (RejectedExecutionException shutDown) {
      // the engine stopped meanwhile
    }
  }

  /** Engine thread: reads the children (arming the watch again) and reports a changed view. */
  private void refresh() {
    if (lost || !client.getZookeeperClient().isConnected()) {
      return; // not connected: the reconnection reads again (an operation now would wait for it)
    }
    List<String> children;
    try {
      children = client.getChildren().usingWatcher(childrenChanged).forPath(membersPath);
    } catch (KeeperException.ConnectionLossException | KeeperException.SessionExpiredException e) {
      return; // the connection's state change follows, and a reconnection reads again
    } catch (Exception e) {
      log.warn("{}: cannot read the members at {}: {}", context.self(), membersPath, e.toString());
      return;
    }
    List<String> ordered = new ArrayList<>(children);
    ordered.sort(Comparator.comparingLong(ZooKeeperMembershipProvider::sequence).thenComparing(Comparator.naturalOrder()));
    Set<String> present = Set.copyOf(children);
    byChild.keySet().retainAll(present);
    refused.retainAll(present);
    List<EngineMember> members = new ArrayList<>(ordered.size());
    for (String child : ordered) {
      if (refused.contains(child)) {
        continue;
      }
      EngineMember m = byChild.get(child);
      if (m == null) {
        m = read(child);
        if (m == null) {
          continue; // gone between the two reads, or refused
        }
        byChild.put(child, m);
      }
      members.add(m);
    }
    report(members);
  }

  /** @return the member of a child node; null if the node is gone, or its data is not a member (then refused) */
  private EngineMember read(String child) {
    byte[] data;
    try {
      data = client.getData().forPath(membersPath + "/" + child);
    } catch (KeeperException.NoNodeException gone) {
      return null;
    } catch (Exception e) {
      log.debug("{}: cannot read {}: {}", context.self(), child, e.toString());
      return null; // read again at the next change
    }
    try {
      return MemberRecord.decode(data);
    } catch (IllegalArgumentException e) {
      log.warn("{}: {}/{} is not a member record, left out of the cluster: {}", context.self(), membersPath, child,
          e.getMessage());
      refused.add(child);
      return null;
    }
  }

  /** The sequence ZooKeeper appended to a child's name; children without one sort first. */
  private static long sequence(String child) {
    int i = child.length();
    while (i > 0 && Character.isDigit(child.charAt(i - 1))) {
      i--;
    }
    if (i == child.length() || child.length() - i > 18) {
      return -1;
    }
    return Long.parseLong(child.substring(i));
  }

  private void report(List<EngineMember> members) {
    if (members.equals(last)) {
      return;
    }
    last = List.copyOf(members);
    synchronized (this) { // against leave and close: after them, nothing is reported
      if (!stopped) {
        listener.viewChanged(new MembershipView(++version, last, false));
      }
    }
  }

  private synchronized void tell(java.util.function.Consumer<MembershipListener> call) {
    if (!stopped) {
      call.accept(listener);
    }
  }

  /** Engine thread: the client's connection changed. */
  private void connection(ConnectionState state) {
    if (lost) {
      return;
    }
    switch (state) {
      case SUSPENDED -> {
        for (EngineMember m : last) {
          if (!m.node().equals(self.node()) && suspected.add(m.node())) {
            tell(l -> l.suspected(m.node()));
          }
        }
      }
      case RECONNECTED -> {
        for (UniqueAddress m : suspected) {
          tell(l -> l.unsuspected(m));
        }
        suspected.clear();
        refresh();
      }
      case LOST -> {
        lost = true;
        log.warn("{}: the ZooKeeper session expired: the ensemble removed this member", context.self());
        List<EngineMember> without = new ArrayList<>(last);
        without.removeIf(m -> m.node().equals(self.node()));
        report(without);
      }
      default -> { }
    }
  }

  @Override
  public void leave() {
    CuratorFramework c = client;
    String own = ownNode;
    boolean wasStopped;
    synchronized (this) {
      wasStopped = stopped;
      stopped = true; // no report from here on: the others' next view lacks this node, this one hears none
    }
    if (c != null && own != null && !wasStopped) {
      try {
        c.delete().forPath(own);
      } catch (KeeperException.NoNodeException alreadyGone) {
        // the session expired before: the node is gone
      } catch (Exception e) {
        log.warn("{}: could not delete {} on leaving ({}); closing the session removes it", context.self(), own,
            e.toString());
      }
    }
    close();
  }

  @Override
  public void close() {
    synchronized (this) {
      stopped = true;
    }
    CuratorFramework c = client;
    if (c != null) {
      c.close();
    }
    ExecutorService t = thread;
    if (t != null) {
      t.shutdown();
    }
  }

  @Override
  public String toString() {
    return "ZooKeeperMembershipProvider(" + context.self() + " at " + endpoint + ")";
  }
}
