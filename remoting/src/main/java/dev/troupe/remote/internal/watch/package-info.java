/**
 * Death watch across nodes: the nodes where local actors watch remote ones, heartbeats to them and
 * the phi-accrual failure detector that gives up on a node. Above the associations (it sends its
 * heartbeats on their control lanes), beside remote deployment; the provider acts on its verdict.
 */
package dev.troupe.remote.internal.watch;
