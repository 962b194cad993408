/**
 * Persistence queries: the events a journal stores, read as streams by whoever needs them (a read
 * model, a projection, an audit) rather than by the actor that wrote them.
 *
 * <p>{@link dev.troupe.persistence.query.PersistenceQuery} makes read journals from configuration;
 * the queries they offer are the interfaces of {@code dev.troupe.persistence.query.javadsl}, and
 * each returns a {@link java.util.concurrent.Flow.Publisher}: the JDK's reactive-streams interface,
 * so a query plugs into any reactive library (Pekko Streams' {@code JavaFlowSupport}, Reactor,
 * RxJava, Mutiny) and honours its subscriber's demand. {@link
 * dev.troupe.persistence.query.polling.PollingReadJournal} reads any journal plugin.
 *
 * <p>Durable state is queried too: {@code DurableStateStoreRegistry} (in {@code
 * dev.troupe.persistence.state}) hands out a store's {@code javadsl.DurableStateStoreQuery}, whose
 * streams of {@link dev.troupe.persistence.query.DurableStateChange} hand over the latest change of
 * each object stored with a tag.
 */
package dev.troupe.persistence.query;
