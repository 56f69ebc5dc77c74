// The BGP app's PeerEndpoint: its source check (shared with peer groups), and what its API
// serializer does after a save, Peering.update_peers: once a peering has its two endpoints,
// each one's peer is the other. Its search, by the routing instance's device name.
import { columns, type SavedEvent } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { NautobotBgpModelsPeerEndpoint } from "../../../generated/inventory/rows.js";
import { peerEndpointSearch } from "./lib/search.js";

export { beforeSave } from "./source.js";

export const filters = { q: peerEndpointSearch };

const E = tables.nautobot_bgp_models.peerendpoint;

export async function afterSave({ db, after }: SavedEvent<NautobotBgpModelsPeerEndpoint>): Promise<void> {
  const c = columns(E);
  const ends: Array<{ id: string; peer: string | null }> = await db(E.table).where({ [c.peering]: after.peering }).orderBy("id").select("id", { peer: c.peer });
  if (ends.length !== 2) return;
  for (const [end, other] of [[ends[0], ends[1]], [ends[1], ends[0]]]) {
    if (end.peer !== other.id) await db(E.table).where({ id: end.id }).update({ [c.peer]: other.id });
  }
}
