package dev.troupe.cluster.internal.jgroups;

import org.jgroups.logging.CustomLogFactory;
import org.jgroups.logging.Log;
import org.jgroups.logging.LogFactory;

/**
 * Makes JGroups log through slf4j, as every Troupe library does, and quietly (see {@link
 * JGroupsLog}).
 *
 * <p>JGroups has a log abstraction of its own that picks, per logger, log4j2 when its core is on the
 * class path, else slf4j when its API is (always, with Troupe: JGroups' own {@code Slf4jLogImpl}),
 * else {@code java.util.logging}. The engine installs {@link JGroupsLog} as JGroups' log factory
 * instead, so that JGroups' lines always go through slf4j (log4j2 on the class path or not) and at
 * the levels {@link JGroupsLog} documents. It does so before it builds its first stack (JGroups'
 * protocols create their loggers when built), and not at all when the application has installed a
 * factory of its own.
 */
final class JGroupsLogging {
  private JGroupsLogging() {}

  private static final CustomLogFactory SLF4J =
      new CustomLogFactory() {
        @Override
        public Log getLog(Class<?> clazz) {
          return new JGroupsLog(clazz);
        }

        @Override
        public Log getLog(String category) {
          return new JGroupsLog(category);
        }
      };

  /** Installs the slf4j factory unless one is installed already; idempotent. */
  static synchronized void install() {
    if (LogFactory.getCustomLogFactory() == null) {
      LogFactory.setCustomLogFactory(SLF4J);
    }
  }

  /** @return whether JGroups' loggers created from now on are Troupe's slf4j adapter */
  static boolean throughSlf4j() {
    return LogFactory.getLog(JGroupsLogging.class) instanceof JGroupsLog;
  }
}
