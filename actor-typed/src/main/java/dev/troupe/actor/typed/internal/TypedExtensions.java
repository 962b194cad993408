package dev.troupe.actor.typed.internal;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Extension;
import dev.troupe.actor.ExtensionId;
import dev.troupe.actor.spi.ExtensionSlots;
import java.util.List;

/**
 * A classic library extension (listed in this module's {@code reference.conf}) that registers the
 * typed extensions a system's configuration lists, {@code troupe.actor.typed.library-extensions}
 * then {@code troupe.actor.typed.extensions}, on the system's typed view, when the classic system
 * starts: so a typed system has them before its guardian runs.
 */
public final class TypedExtensions implements ExtensionId<TypedExtensions.Loaded> {
  /** The one id. */
  public static final TypedExtensions INSTANCE = new TypedExtensions();

  /** What the classic system holds: that the typed extensions were loaded. */
  public static final class Loaded implements Extension {
    private Loaded() {}
  }

  private TypedExtensions() {}

  @Override
  public Loaded createExtension(ActorSystem system) {
    Config config = system.settings().config();
    TypedSystem<?> typed = null; // made only when something is listed: a classic-only system gets no typed view
    for (String key : List.of("troupe.actor.typed.library-extensions", "troupe.actor.typed.extensions")) {
      for (String name : ExtensionSlots.entries(config, key)) {
        if (typed == null) {
          typed = TypedSystem.of(system);
        }
        TypedSystem<?> view = typed;
        dev.troupe.actor.typed.ExtensionId<?> id =
            (dev.troupe.actor.typed.ExtensionId<?>)
                ExtensionSlots.findId(key, name, ExtensionSlots.loader(), dev.troupe.actor.typed.ExtensionId.class, null, null);
        ExtensionSlots.start(key, name, () -> view.registerExtension(id));
      }
    }
    return new Loaded();
  }

  @Override
  public String toString() {
    return "TypedExtensions";
  }
}
