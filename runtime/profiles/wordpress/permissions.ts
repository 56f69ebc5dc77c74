// Who may do what, WordPress's roles as the plugin applies them (DRF's permission class):
// anyone reads published posts and every term; a logged-in user reads their own unpublished
// posts, an editor every post; editors write anything, contributors only their own
// unpublished posts and no terms. Refusals are 401 for nobody, 403 for a user without the right.
import type { ModelDescriptor } from "../../descriptor.js";
import type { Requester } from "./auth.js";
import { forbidden, WpError } from "./errors.js";
import type { Row } from "./records.js";

export interface WpPermission {
  /** The requester of a write; refuses an anonymous one. */
  loggedIn(who: Requester | null): Requester;
  /** Refuses reading `row` of `m` (a trashed post, or an unpublished one not the requester's). */
  checkRead(who: Requester | null, m: ModelDescriptor, row: Row): void;
  /** Refuses creating a record of `m`. */
  checkCreate(who: Requester, m: ModelDescriptor): void;
  /** May `who` change or delete `row` of `m`, as it is now? */
  mayChange(who: Requester, m: ModelDescriptor, row: Row): boolean;
}

/** May `who` change this post? Editors any; contributors their own unpublished ones. */
function canEdit(who: Requester, row: Row): boolean {
  return who.role === "editor" || (row.author === who.userId && !["publish", "future", "private"].includes(row.status));
}

export const rolePermission: WpPermission = {
  loggedIn(who) {
    if (!who) throw forbidden(false);
    return who;
  },

  checkRead(who, m, row) {
    const wp = m.wordpress!;
    if (wp.kind !== "post") return;
    if (row.status === "trash") throw new WpError(403, `${wp.noun}-no-longer-available`, `This ${wp.noun} is no longer available`);
    const mine = who && (who.role === "editor" || row.author === who.userId);
    if (row.status !== "publish" && !mine) throw new WpError(403, `${wp.noun}-not-accessible`, `The requested ${wp.noun} is not accessible`);
  },

  checkCreate(who, m) {
    if (m.wordpress!.kind === "term" && who.role !== "editor") throw forbidden(true);
  },

  mayChange(who, m, row) {
    return m.wordpress!.kind === "term" ? who.role === "editor" : canEdit(who, row);
  },
};
