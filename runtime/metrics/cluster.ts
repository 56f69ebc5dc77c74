// The whole server's series under `serve --workers N` (runtime/http/cluster.ts): the worker that
// takes a scrape asks the primary, which gathers every worker's registry over the cluster's IPC
// (prom-client's AggregatorRegistry) and answers with their aggregate: counters and histograms
// summed, as each metric's aggregator says. Outside a cluster a process's series are the whole.
import cluster from "node:cluster";
import { AggregatorRegistry, type Registry } from "prom-client";

const ASK = "armature:metrics:ask";
const ANSWER = "armature:metrics:answer";
/** prom-client's primary gives up on a silent worker after 5 s; the asking worker waits a little longer. */
const ANSWER_WITHIN_MS = 7000;

interface Ask { type: typeof ASK; id: number }
interface Answer { type: typeof ANSWER; id: number; text?: string; error?: string }

/** In the primary, before the workers are forked: answers their requests for the aggregate. */
export function aggregateForWorkers(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: Partial<Ask>) => {
    if (message?.type !== ASK || typeof message.id !== "number") return;
    const id = message.id;
    const reply = (answer: Omit<Answer, "type" | "id">) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id, ...answer } satisfies Answer);
    };
    aggregator.clusterMetrics().then((text) => reply({ text }), (err: unknown) => reply({ error: err instanceof Error ? err.message : String(err) }));
  });
}

let asked = 0;
const waiting = new Map<number, (answer: Answer) => void>();
let sharing = false;

/** In a worker: offers `registry` to the primary's aggregation, once. */
export function shareWithPrimary(registry: Registry): void {
  if (sharing || !cluster.isWorker) return;
  sharing = true;
  // Its constructor makes this worker answer the primary's requests, with the registries set here.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  process.on("message", (message: Partial<Answer>) => {
    if (message?.type === ANSWER && typeof message.id === "number") waiting.get(message.id)?.(message as Answer);
  });
}

/** The text of every worker's series together: the primary's aggregate, or `local`'s own outside a cluster. */
export async function wholeServer(local: Registry): Promise<string> {
  if (!cluster.isWorker) return local.metrics();
  const id = ++asked;
  const answer = await new Promise<Answer>((resolve) => {
    const timer = setTimeout(() => resolve({ type: ANSWER, id, error: `no answer from the primary within ${ANSWER_WITHIN_MS / 1000} s` }), ANSWER_WITHIN_MS);
    waiting.set(id, (a) => {
      clearTimeout(timer);
      resolve(a);
    });
    process.send!({ type: ASK, id } satisfies Ask);
  }).finally(() => waiting.delete(id));
  if (answer.error !== undefined || answer.text === undefined) throw new Error(`aggregating the workers' metrics: ${answer.error}`);
  return answer.text;
}
