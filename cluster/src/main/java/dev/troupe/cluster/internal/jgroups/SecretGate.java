package dev.troupe.cluster.internal.jgroups;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.stack.Protocol;
import org.jgroups.util.ExtendedUUID;
import org.jgroups.util.MessageBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code troupe.cluster.jgroups.auth-secret}: only holders of the cluster's shared secret take part
 * in the engine's protocol. Sits right above the transport, so discovery, joins, merges, heartbeats,
 * suspicion checks and views all pass through it.
 *
 * <p>Each member signs its own JGroups address when it is made (a fresh random UUID per join, see
 * {@link MemberIdentity}): the tag is an HMAC-SHA256, keyed by the secret, over a format label, the
 * cluster's name, the UUID and the member's identity (its Troupe address, uid and roles), stored in
 * the address under the key {@value #TAG_KEY}. JGroups carries the sender's full address in every
 * message, so every message that arrives is checked against its sender's tag, and one from a sender
 * without a valid tag (a stranger, a node of another cluster, one with another secret) is dropped
 * before any protocol reads it: a stranger gets no discovery answer, cannot join, and cannot forge
 * suspicions, leaves or views. The secret itself never travels.
 *
 * <p>What it does not do: the tag is bound to one member's address, not to each message, and
 * messages are not encrypted, so someone who can read the network between members learns members'
 * signed addresses and could replay one (speak as that member of that incarnation; never as a new
 * member, and never with another identity). On a network where that is a concern, run remoting
 * with TLS, which puts the engine's connections under TLS with mutual authentication too.
 *
 * <p>Cost: one HMAC over about a hundred bytes per message received; the engine carries a few
 * messages per second per member (heartbeats, and bursts at view changes).
 */
final class SecretGate extends Protocol {
  private static final Logger log = LoggerFactory.getLogger(SecretGate.class);
  /** The key of the tag in a member's {@link ExtendedUUID}. */
  static final String TAG_KEY = "ta";
  private static final byte[] LABEL = "troupe-jgroups-member-1".getBytes(StandardCharsets.US_ASCII);
  private static final String ALGORITHM = "HmacSHA256";
  /** At most one warning about refused senders per this many milliseconds (a stranger may send many). */
  private static final long WARN_EVERY_MS = 10_000;

  private final Mac mac;
  private final byte[] cluster;
  private final String node;
  private final AtomicLong nextWarning = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();

  /**
   * @param secret the shared secret (non-empty)
   * @param clusterName the JGroups cluster's name, part of what is signed
   * @param node this node, for log lines
   */
  SecretGate(String secret, String clusterName, String node) {
    try {
      mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM offers no " + ALGORITHM, e);
    }
    this.cluster = clusterName.getBytes(StandardCharsets.UTF_8);
    this.node = node;
  }

  /** Signs {@code address} (this node's own, before it is used) and returns it. */
  ExtendedUUID sign(ExtendedUUID address) {
    return address.put(TAG_KEY, tag(address));
  }

  /** @return whether {@code sender} carries a tag made with this gate's secret for this cluster */
  boolean admits(Address sender) {
    if (!(sender instanceof ExtendedUUID uuid)) {
      return false;
    }
    byte[] tag = uuid.get(TAG_KEY);
    return tag != null && MessageDigest.isEqual(tag, tag(uuid));
  }

  /** @return how many messages were dropped so far (for tests) */
  long refused() {
    return refused.get();
  }

  private byte[] tag(ExtendedUUID address) {
    ByteBuffer ids = ByteBuffer.allocate(2 * Long.BYTES);
    ids.putLong(address.getMostSignificantBits()).putLong(address.getLeastSignificantBits());
    synchronized (mac) {
      mac.update(LABEL);
      mac.update((byte) 0);
      mac.update(cluster);
      mac.update((byte) 0);
      mac.update(ids.array());
      for (byte[] chunk : MemberIdentity.chunks(address)) {
        mac.update(chunk);
      }
      return mac.doFinal();
    }
  }

  @Override
  public Object up(Message msg) {
    if (!admits(msg.getSrc())) {
      drop(msg.getSrc(), 1);
      return null;
    }
    return up_prot.up(msg);
  }

  @Override
  public void up(MessageBatch batch) {
    if (admits(batch.sender())) {
      // a batch's messages all come from its sender; checking each one is cheap and leaves no gap
      for (Iterator<Message> it = batch.iterator(); it.hasNext(); ) {
        Message m = it.next();
        if (m.getSrc() != null && m.getSrc() != batch.sender() && !admits(m.getSrc())) {
          it.remove();
          drop(m.getSrc(), 1);
        }
      }
      if (!batch.isEmpty()) {
        up_prot.up(batch);
      }
      return;
    }
    drop(batch.sender(), batch.size());
  }

  private void drop(Address sender, int count) {
    refused.addAndGet(count);
    long now = System.currentTimeMillis();
    long next = nextWarning.get();
    if (now >= next && nextWarning.compareAndSet(next, now + WARN_EVERY_MS)) {
      log.warn(
          "{}: dropped {} engine message(s) from {}, which does not carry this cluster's auth-secret signature "
              + "(a node with another troupe.cluster.jgroups.auth-secret, or not a member); {} dropped so far",
          node, count, sender, refused.get());
    } else {
      log.debug("{}: dropped {} engine message(s) from unsigned sender {}", node, count, sender);
    }
  }
}
