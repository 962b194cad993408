package dev.troupe.persistence.query;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/** Review: a journal whose replay throws an Error synchronously (e.g. a LinkageError from its code). */
public final class ErrorJournal implements Journal {
  public ErrorJournal(ActorSystem system, Config config) {}

  @Override
  public CompletionStage<List<Optional<Exception>>> write(List<AtomicWrite> writes) {
    return CompletableFuture.completedFuture(List.of());
  }

  @Override
  public CompletionStage<Void> replay(String id, long from, long to, long max, Consumer<PersistentRepr> onEvent) {
    throw new NoClassDefFoundError("some/Serializer");
  }

  @Override
  public CompletionStage<Long> highestSequenceNr(String id) {
    return CompletableFuture.completedFuture(10L);
  }

  @Override
  public CompletionStage<Void> deleteTo(String id, long to) {
    return CompletableFuture.completedFuture(null);
  }
}
