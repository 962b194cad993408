/** Mailbox and dispatcher types that users name in configuration. */
package dev.troupe.dispatch;
