package dev.troupe.cluster.internal.inmemory;

import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.spi.EngineMember;
import dev.troupe.cluster.spi.MembershipContext;
import dev.troupe.cluster.spi.MembershipListener;
import dev.troupe.cluster.spi.MembershipProvider;
import dev.troupe.cluster.spi.MembershipView;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node of the in-memory engine. Its reports run on a thread of its own ({@code
 * troupe-cluster-in-memory-<node>}), one at a time; the group ({@link InMemoryCluster}) queues them
 * while it holds its lock, so every node hears the group's changes in the one order the group made
 * them. {@code leave()} and {@code close()} both take the node out at once: a leave as a plain new
 * view for the others, a close as a crash (the others hear {@code suspected} first).
 */
final class InMemoryMembershipProvider implements MembershipProvider {
  private static final Logger log = LoggerFactory.getLogger(InMemoryMembershipProvider.class);

  private final MembershipContext context;
  private final EngineMember self;
  private ExecutorService thread; // set by join
  private volatile MembershipListener listener;
  private volatile boolean stopped;
  private boolean joined; // join/leave/close are called one at a time

  InMemoryMembershipProvider(MembershipContext context) {
    this.context = context;
    this.self = new EngineMember(context.self(), context.roles());
  }

  EngineMember self() {
    return self;
  }

  UniqueAddress node() {
    return self.node();
  }

  @Override
  public String join(List<String> seedEndpoints, MembershipListener listener) throws Exception {
    Objects.requireNonNull(listener, "listener");
    List<Long> seeds = InMemoryCluster.parseEndpoints(seedEndpoints);
    if (joined || stopped) {
      throw new IllegalStateException("join is called once per engine");
    }
    joined = true;
    this.listener = listener;
    String name = "troupe-cluster-in-memory-" + context.self();
    thread =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, name);
              t.setDaemon(true);
              return t;
            });
    try {
      return InMemoryCluster.join(context.clusterName(), this, seeds);
    } catch (Exception | Error e) {
      thread.shutdown(); // not stopped: a failed join may be tried again
      thread = null;
      this.listener = null;
      joined = false;
      throw e;
    }
  }

  @Override
  public void leave() {
    if (joined && !stopped) {
      stop();
      InMemoryCluster.remove(context.clusterName(), this, false);
    }
    stopped = true;
  }

  @Override
  public void close() {
    if (joined && !stopped) {
      stop();
      InMemoryCluster.remove(context.clusterName(), this, true);
    }
    stopped = true;
  }

  /** Called by the group when it crashes this node: no more reports. */
  void stop() {
    stopped = true;
    if (thread != null) {
      thread.shutdown();
    }
  }

  boolean stopped() {
    return stopped;
  }

  void reportView(MembershipView view) {
    report(l -> l.viewChanged(view));
  }

  void reportSuspected(UniqueAddress member) {
    report(l -> l.suspected(member));
  }

  void reportUnsuspected(UniqueAddress member) {
    report(l -> l.unsuspected(member));
  }

  private void report(Consumer<MembershipListener> call) {
    if (stopped) {
      return;
    }
    try {
      thread.execute(
          () -> {
            if (stopped) {
              return;
            }
            try {
              call.accept(listener);
            } catch (RuntimeException | Error e) {
              log.error("{}: the membership listener failed; the engine goes on reporting", context.self(), e);
            }
          });
    } catch (RejectedExecutionException e) {
      // stopped meanwhile
    }
  }
}
