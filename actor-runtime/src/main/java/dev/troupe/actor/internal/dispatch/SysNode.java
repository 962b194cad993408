package dev.troupe.actor.internal.dispatch;

import dev.troupe.runtime.spi.SystemMessage;

/** A node of the mailbox's system-message stack. */
final class SysNode {
  final SystemMessage message;
  SysNode next; // written before publication by CAS, or by the single consumer after detaching

  SysNode(SystemMessage message) {
    this.message = message;
  }
}
