package dev.troupe.persistence.query.javadsl;

import dev.troupe.persistence.query.DurableStateChange;
import dev.troupe.persistence.query.Offset;
import java.util.concurrent.Flow;

/**
 * The changes of a durable state store's objects by tag, as streams: Pekko's {@code
 * DurableStateStoreQuery}. Made by {@code DurableStateStoreRegistry.get(system)
 * .getDurableStateStoreFor(DurableStateStoreQuery.class, pluginId)}.
 *
 * <p>A store keeps only the latest change of each object, so a query hands over the latest change
 * of each object stored with the tag, in the order of their offsets (one sequence for all the
 * store's changes, so the offsets of one tag's changes have gaps). An object changed again while a
 * query runs is handed over again with its new offset; changes in between, and objects changed
 * again before the query reached them, are handed over once, at their latest revision: a
 * subscriber sees every object's latest state, not every state it had.
 *
 * @param <A> the type of the state
 */
public interface DurableStateStoreQuery<A> {
  /**
   * As {@link #changes}, but the stream completes once it has handed over the changes up to the
   * highest offset stored when it first read (at the subscriber's first request). An object changed
   * after that has a higher offset and is left out: the next query from the last offset handed
   * over, or {@link #changes}, hands it over.
   *
   * @param tag the tag the objects were stored with
   * @param offset where to start: {@code Offset.noOffset()} for the first change, or the offset of
   *     the last change already handled (that one is not handed over again)
   * @return a publisher; each subscription reads on its own
   */
  Flow.Publisher<DurableStateChange<A>> currentChanges(String tag, Offset offset);

  /**
   * The latest change of each object stored with a tag, in the order of their offsets, deletes
   * included ({@code DeletedDurableState}); the stream goes on with changes stored later, until
   * cancelled.
   *
   * @param tag the tag the objects were stored with
   * @param offset where to start: {@code Offset.noOffset()} for the first change, or the offset of
   *     the last change already handled (that one is not handed over again)
   * @return a publisher; each subscription reads on its own
   */
  Flow.Publisher<DurableStateChange<A>> changes(String tag, Offset offset);
}
