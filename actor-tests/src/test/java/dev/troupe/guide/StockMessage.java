package dev.troupe.guide;

// The guide's remote messages (chapter "Remoting"): records behind one interface, bound to a
// serializer in configuration (guide.conf, region serialization-bindings).
// tag::stock-message[]
public interface StockMessage {
  record Reserve(String item, int amount) implements StockMessage {}

  record Reserved(String item, int left) implements StockMessage {}
}
// end::stock-message[]
