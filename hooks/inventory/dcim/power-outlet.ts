// A power outlet: its power port is a sibling (same-parent rules), and it is a path endpoint.
export { beforeSave } from "./same-parent.js";
export { actions, beforeDelete } from "./cable-end.js";
