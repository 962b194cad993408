/**
 * The controllers' behaviours, their wire messages and the reading of their settings; not exported.
 */
package dev.troupe.actor.typed.delivery.internal;
