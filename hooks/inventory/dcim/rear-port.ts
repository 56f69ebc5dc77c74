// A rear port: a cable end whose `paths` action shows the traced paths passing through it.
import { paths } from "../lib/cabling.js";

export { beforeDelete } from "./cable-end.js";
export const actions = { paths };
