// Run as a process of its own by test/unit/graphql-schema-memory.test.ts: builds the inventory's
// GraphQL schema, takes a heap snapshot (small in a fresh process, where the test runner's heap
// of every loaded file took minutes to write) and prints whether the SDL's text is in it.
import { getHeapSnapshot } from "node:v8";
import { apis } from "../../generated/server.js";
import { graphqlSdl } from "../../runtime/artifacts.js";
import { buildGraphqlApi } from "../../runtime/graphql/schema.js";
import { ModelIndex } from "../../runtime/models.js";

const api = apis.find((a) => a.graphqlFile !== undefined)!;

/**
 * The SDL's first characters as a heap snapshot writes them (JSON-escaped). Not the characters
 * themselves: a string of them would be found in the snapshot too.
 */
function sdlHeadInSnapshot(): string {
  return JSON.stringify(graphqlSdl(api)!.slice(0, 80)).slice(1, -1);
}

const { schema } = buildGraphqlApi(() => graphqlSdl(api)!, new ModelIndex(api));
const head = sdlHeadInSnapshot();
// The heap as V8 writes it, after a full collection: a string the schema holds a slice of is
// in it whole, its text among the snapshot's strings.
let snapshot = "";
for await (const chunk of getHeapSnapshot()) snapshot += String(chunk);
process.stdout.write(JSON.stringify({
  head,
  snapshotOfSchema: snapshot.includes("GraphQLSchema"),
  sdlKept: snapshot.includes(head),
  described: (schema.getType("DeviceType")?.description ?? "") !== "",
}));
