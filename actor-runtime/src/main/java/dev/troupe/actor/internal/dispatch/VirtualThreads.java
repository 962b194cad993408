package dev.troupe.actor.internal.dispatch;

import dev.troupe.actor.ConfigurationException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;

/**
 * The {@code virtual-thread-executor}: every mailbox run on a virtual thread of its own (JDK 21+).
 *
 * <p>The runtime is compiled for Java 17, so the JDK 21 API ({@code Thread.ofVirtual()}, {@code
 * Thread.Builder}, {@code Executors.newThreadPerTaskExecutor}) is reached through method handles,
 * looked up once per JVM (on the first dispatcher that asks) and only then: a system that never
 * uses this executor never touches them. On an older JDK the lookup fails and every dispatcher
 * that asks for the executor fails with a {@link ConfigurationException} naming itself.
 *
 * <p>No thread exists while no mailbox runs, so an idle dispatcher of this kind burns nothing.
 * Virtual threads are always daemon threads, whatever {@code troupe.daemonic} says; the system's
 * other dispatchers keep the JVM alive as before.
 */
final class VirtualThreads {
  private VirtualThreads() {}

  /** The handles, or why they are missing; resolved when the class is first used. */
  private static final class Api {
    static final MethodHandle OF_VIRTUAL; // () -> Thread.Builder.OfVirtual
    static final MethodHandle NAME; // (OfVirtual, String, long) -> OfVirtual
    static final MethodHandle HANDLER; // (OfVirtual, UncaughtExceptionHandler) -> OfVirtual
    static final MethodHandle FACTORY; // (OfVirtual) -> ThreadFactory
    static final MethodHandle PER_TASK; // (ThreadFactory) -> ExecutorService
    static final String MISSING;

    static {
      MethodHandle ofVirtual = null;
      MethodHandle name = null;
      MethodHandle handler = null;
      MethodHandle factory = null;
      MethodHandle perTask = null;
      String missing = null;
      try {
        if (Runtime.version().feature() < 21) {
          // 19 and 20 have the classes as a preview API, which fails when used without the flag
          throw new ClassNotFoundException("no final virtual-thread API before JDK 21");
        }
        MethodHandles.Lookup l = MethodHandles.publicLookup();
        Class<?> builder = Class.forName("java.lang.Thread$Builder$OfVirtual");
        ofVirtual = l.findStatic(Thread.class, "ofVirtual", MethodType.methodType(builder));
        name = l.findVirtual(builder, "name", MethodType.methodType(builder, String.class, long.class));
        handler = l.findVirtual(
            builder, "uncaughtExceptionHandler",
            MethodType.methodType(builder, Thread.UncaughtExceptionHandler.class));
        factory = l.findVirtual(builder, "factory", MethodType.methodType(ThreadFactory.class));
        perTask = l.findStatic(
            java.util.concurrent.Executors.class, "newThreadPerTaskExecutor",
            MethodType.methodType(ExecutorService.class, ThreadFactory.class));
      } catch (ReflectiveOperationException | LinkageError e) {
        missing = e.toString();
      }
      OF_VIRTUAL = ofVirtual;
      NAME = name;
      HANDLER = handler;
      FACTORY = factory;
      PER_TASK = perTask;
      MISSING = missing;
    }
  }

  /**
   * Fails unless this JVM has virtual threads.
   *
   * @param dispatcherId the dispatcher that asked, for the message
   * @throws ConfigurationException saying that virtual threads need JDK 21+ and who asked
   */
  static void check(String dispatcherId) {
    if (Api.MISSING != null) {
      throw new ConfigurationException(
          "dispatcher " + dispatcherId + " has executor = " + DispatcherSettings.VIRTUAL
              + ", but virtual threads need JDK 21+ and this JVM is Java "
              + Runtime.version().feature() + " (" + Api.MISSING + "); run on JDK 21 or later or "
              + "choose another executor at '" + dispatcherId + ".executor'");
    }
  }

  /**
   * A new executor that starts one virtual thread per task, named {@code <prefix>-<n>}.
   *
   * @param dispatcherId the dispatcher, for the message on an old JDK
   * @param threadNamePrefix the name prefix
   * @param onError where a failure that escaped a task goes
   * @return the executor
   */
  static ExecutorService newExecutor(
      String dispatcherId, String threadNamePrefix, Thread.UncaughtExceptionHandler onError) {
    check(dispatcherId);
    try {
      Object b = Api.OF_VIRTUAL.invoke();
      b = Api.NAME.invoke(b, threadNamePrefix + "-", 1L);
      b = Api.HANDLER.invoke(b, onError);
      ThreadFactory threads = (ThreadFactory) Api.FACTORY.invoke(b);
      return (ExecutorService) Api.PER_TASK.invoke(threads);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("creating the virtual-thread executor of " + dispatcherId, e);
    }
  }
}
