// A front port: its rear port is a sibling (same-parent rules); a cable end whose `paths`
// action shows the traced paths passing through it.
import { paths } from "../lib/cabling.js";

export { beforeSave } from "./same-parent.js";
export { beforeDelete } from "./cable-end.js";
export const actions = { paths };
