// What the server tells whoever listens about its work: a request routed, a queue attempt
// ended, a webhook delivered, a job started or ended, change records committed. Publishers
// say what happened and know no listener; the metrics (runtime/metrics/) subscribe. Built on
// node:diagnostics_channel, so a message nobody subscribed to costs one property read.
import { channel, type Channel } from "node:diagnostics_channel";
import type { ServerResponse } from "node:http";
import type { Knex } from "knex";

export interface Events {
  /** A profile matched a request to a route of its table (`route` null: none matched). */
  /** `fast`: the fast path routed it (runtime/http/fast-path.ts), not Express. */
  "http.routed": { res: ServerResponse; api: string; route: string | null; fast?: true };
  /** A queue attempt ended; `final` when the task will not be tried again. */
  "queue.attempt": { kind: string; outcome: "succeeded" | "failed" | "interrupted"; final: boolean; seconds: number };
  /** A webhook delivery attempt's result: answered 2xx, answered otherwise, or no answer (or none possible). */
  "webhooks.delivery": { result: "delivered" | "refused" | "unreachable" | "invalid" };
  /** A job run began, or ended with its result's status. */
  "jobs.run": { job: string; phase: "started" } | { job: string; phase: "ended"; status: string };
  /** Change records written by a committed transaction. */
  "changes.recorded": { api: string; action: string; count: number };
}

const channels = new Map<string, Channel>();

function channelOf(name: keyof Events): Channel {
  let found = channels.get(name);
  if (!found) channels.set(name, (found = channel(`armature.${name}`)));
  return found;
}

export function publish<K extends keyof Events>(name: K, message: Events[K]): void {
  const ch = channelOf(name);
  if (ch.hasSubscribers) ch.publish(message);
}

/** Calls `listener` with every message of `name` published in this process from now on. */
export function subscribe<K extends keyof Events>(name: K, listener: (message: Events[K]) => void): void {
  channelOf(name).subscribe((message) => listener(message as Events[K]));
}

/** Whether anyone listens to `name`. */
function heard(name: keyof Events): boolean {
  return channelOf(name).hasSubscribers;
}

interface TransactionChain { executionPromise?: Promise<unknown>; parentTransaction?: TransactionChain; isTransaction?: boolean }

/**
 * Publishes once `trx` and every transaction around it committed (at once outside one): what a
 * savepoint or a transaction rolled back wrote was never written, and is not told.
 */
export function publishOnCommit<K extends keyof Events>(trx: Knex | Knex.Transaction, name: K, message: Events[K]): void {
  if (!heard(name)) return;
  const ends: Promise<unknown>[] = [];
  for (let t = trx as unknown as TransactionChain | undefined; t?.isTransaction; t = t.parentTransaction) {
    if (t.executionPromise) ends.push(t.executionPromise);
  }
  Promise.all(ends).then(() => publish(name, message), () => undefined);
}
