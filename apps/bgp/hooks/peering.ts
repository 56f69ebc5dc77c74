// The BGP app's PeeringFilterSet.device: the devices of a peering's endpoints.
import { peeringDevice } from "./lib/search.js";

export const filters = { device: peeringDevice };
