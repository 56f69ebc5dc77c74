// A power outlet: its power port is a sibling (same-parent rules), and it is a cable end.
export { beforeSave } from "./same-parent.js";
export { beforeDelete } from "./cable-end.js";
