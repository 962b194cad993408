package dev.troupe.actor;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiPredicate;

/**
 * Builds the event cases of one state of an {@link AbstractFSM} ({@code when}) or of its
 * unhandled-event fallback ({@code whenUnhandled}). Cases are tried in the order they were added;
 * the first that matches the event and the current state data handles it and returns the next
 * state. Usually started with {@code matchEvent(...)}, {@code matchEventEquals(...)} or {@code
 * matchAnyEvent(...)} inside the FSM and continued with {@link #event}, {@link #eventEquals} and
 * {@link #anyEvent}. Not thread-safe; the FSM copies the cases when it is given the builder.
 *
 * @param <S> the state-name type
 * @param <D> the state-data type
 */
public final class FSMStateFunctionBuilder<S, D> {
  private final List<EventCase> cases = new ArrayList<>();

  /** An empty builder. */
  public FSMStateFunctionBuilder() {}

  /**
   * Adds a case for events of a type while the data is of a type and both pass a predicate.
   *
   * @param eventType the event type
   * @param dataType the data type
   * @param predicate the condition, tested only on an event and data of those types
   * @param apply the handler, returning the next state
   * @param <E> the event type
   * @param <DD> the data type
   * @return this builder
   */
  public <E, DD> FSMStateFunctionBuilder<S, D> event(
      Class<E> eventType, Class<DD> dataType, BiPredicate<E, DD> predicate,
      FSM.Apply2<E, DD, FSM.State<S, D>> apply) {
    Objects.requireNonNull(eventType, "eventType");
    Objects.requireNonNull(dataType, "dataType");
    Objects.requireNonNull(predicate, "predicate");
    return add(EventCase.TYPE, eventType, null, dataType, predicate, apply);
  }

  /**
   * Adds a case for events of a type while the data is of a type.
   *
   * @param eventType the event type
   * @param dataType the data type
   * @param apply the handler, returning the next state
   * @param <E> the event type
   * @param <DD> the data type
   * @return this builder
   */
  public <E, DD> FSMStateFunctionBuilder<S, D> event(
      Class<E> eventType, Class<DD> dataType, FSM.Apply2<E, DD, FSM.State<S, D>> apply) {
    Objects.requireNonNull(eventType, "eventType");
    Objects.requireNonNull(dataType, "dataType");
    return add(EventCase.TYPE, eventType, null, dataType, null, apply);
  }

  /**
   * Adds a case for events of a type that pass a predicate with the data, whatever its type.
   *
   * @param eventType the event type
   * @param predicate the condition on the event and the data
   * @param apply the handler, returning the next state
   * @param <E> the event type
   * @return this builder
   */
  public <E> FSMStateFunctionBuilder<S, D> event(
      Class<E> eventType, BiPredicate<E, D> predicate, FSM.Apply2<E, D, FSM.State<S, D>> apply) {
    Objects.requireNonNull(eventType, "eventType");
    Objects.requireNonNull(predicate, "predicate");
    return add(EventCase.TYPE, eventType, null, null, predicate, apply);
  }

  /**
   * Adds a case for events of a type, whatever the data.
   *
   * @param eventType the event type
   * @param apply the handler, returning the next state
   * @param <E> the event type
   * @return this builder
   */
  public <E> FSMStateFunctionBuilder<S, D> event(
      Class<E> eventType, FSM.Apply2<E, D, FSM.State<S, D>> apply) {
    Objects.requireNonNull(eventType, "eventType");
    return add(EventCase.TYPE, eventType, null, null, null, apply);
  }

  /**
   * Adds a case for any event that passes a predicate with the data.
   *
   * @param predicate the condition on the event and the data
   * @param apply the handler, returning the next state
   * @return this builder
   */
  public FSMStateFunctionBuilder<S, D> event(
      BiPredicate<Object, D> predicate, FSM.Apply2<Object, D, FSM.State<S, D>> apply) {
    Objects.requireNonNull(predicate, "predicate");
    return add(EventCase.ANY, null, null, null, predicate, apply);
  }

  /**
   * Adds a case for events that match one entry of a list while the data is of a type: an entry
   * that is a {@link Class} matches its instances, any other entry matches events equal to it.
   *
   * @param eventMatches the types and values
   * @param dataType the data type
   * @param apply the handler, returning the next state
   * @param <DD> the data type
   * @return this builder
   */
  public <DD> FSMStateFunctionBuilder<S, D> event(
      List<Object> eventMatches, Class<DD> dataType, FSM.Apply2<Object, DD, FSM.State<S, D>> apply) {
    Objects.requireNonNull(dataType, "dataType");
    return add(EventCase.LIST, null, listOf(eventMatches), dataType, null, apply);
  }

  /**
   * Adds a case for events that match one entry of a list, whatever the data: an entry that is a
   * {@link Class} matches its instances, any other entry matches events equal to it.
   *
   * @param eventMatches the types and values
   * @param apply the handler, returning the next state
   * @return this builder
   */
  public FSMStateFunctionBuilder<S, D> event(
      List<Object> eventMatches, FSM.Apply2<Object, D, FSM.State<S, D>> apply) {
    return add(EventCase.LIST, null, listOf(eventMatches), null, null, apply);
  }

  /**
   * Adds a case for events equal to a value while the data is of a type.
   *
   * @param event the value (compared with {@code equals}, also when it is a {@code Class})
   * @param dataType the data type
   * @param apply the handler, returning the next state
   * @param <E> the event type
   * @param <DD> the data type
   * @return this builder
   */
  public <E, DD> FSMStateFunctionBuilder<S, D> eventEquals(
      E event, Class<DD> dataType, FSM.Apply2<E, DD, FSM.State<S, D>> apply) {
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(dataType, "dataType");
    return add(EventCase.EQUALS, event, null, dataType, null, apply);
  }

  /**
   * Adds a case for events equal to a value, whatever the data.
   *
   * @param event the value (compared with {@code equals}, also when it is a {@code Class})
   * @param apply the handler, returning the next state
   * @param <E> the event type
   * @return this builder
   */
  public <E> FSMStateFunctionBuilder<S, D> eventEquals(
      E event, FSM.Apply2<E, D, FSM.State<S, D>> apply) {
    Objects.requireNonNull(event, "event");
    return add(EventCase.EQUALS, event, null, null, null, apply);
  }

  /**
   * Adds a case for every event; cases after it are never reached.
   *
   * @param apply the handler, returning the next state
   * @return this builder
   */
  public FSMStateFunctionBuilder<S, D> anyEvent(FSM.Apply2<Object, D, FSM.State<S, D>> apply) {
    return add(EventCase.ANY, null, null, null, null, apply);
  }

  /** @return a copy of the cases added so far, in order */
  EventCase[] cases() {
    return cases.toArray(new EventCase[0]);
  }

  private static Object[] listOf(List<Object> eventMatches) {
    Objects.requireNonNull(eventMatches, "eventMatches");
    Object[] all = eventMatches.toArray();
    for (Object o : all) {
      Objects.requireNonNull(o, "an entry of eventMatches");
    }
    return all;
  }

  @SuppressWarnings("unchecked")
  private FSMStateFunctionBuilder<S, D> add(int kind, Object event, Object[] list, Class<?> dataType,
      BiPredicate<?, ?> predicate, FSM.Apply2<?, ?, ?> apply) {
    Objects.requireNonNull(apply, "apply");
    cases.add(new EventCase(kind, event, list, dataType, (BiPredicate<Object, Object>) predicate,
        (FSM.Apply2<Object, Object, FSM.State<?, ?>>) apply));
    return this;
  }

  /** One event case, erased: the typed methods above guarantee the casts. */
  static final class EventCase {
    static final int ANY = 0;
    static final int TYPE = 1;
    static final int EQUALS = 2;
    static final int LIST = 3;

    private final int kind;
    private final Object event; // TYPE: the Class; EQUALS: the value
    private final Object[] list; // LIST: classes and values
    private final Class<?> dataType; // null: any data
    private final BiPredicate<Object, Object> predicate; // null: none
    final FSM.Apply2<Object, Object, FSM.State<?, ?>> apply;

    EventCase(int kind, Object event, Object[] list, Class<?> dataType,
        BiPredicate<Object, Object> predicate, FSM.Apply2<Object, Object, FSM.State<?, ?>> apply) {
      this.kind = kind;
      this.event = event;
      this.list = list;
      this.dataType = dataType;
      this.predicate = predicate;
      this.apply = apply;
    }

    boolean matches(Object e, Object data) {
      switch (kind) {
        case TYPE:
          if (!((Class<?>) event).isInstance(e)) {
            return false;
          }
          break;
        case EQUALS:
          if (!event.equals(e)) {
            return false;
          }
          break;
        case LIST:
          if (!inList(e)) {
            return false;
          }
          break;
        default:
          break;
      }
      if (dataType != null && !dataType.isInstance(data)) {
        return false;
      }
      return predicate == null || predicate.test(e, data);
    }

    private boolean inList(Object e) {
      for (Object m : list) {
        if (m instanceof Class<?> c ? c.isInstance(e) : m.equals(e)) {
          return true;
        }
      }
      return false;
    }
  }
}
