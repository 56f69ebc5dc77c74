// The views by the kind a route's endpoint names: the generated table's kinds, and the two
// routes of WordPress core the profile also serves (the REST index and application passwords).
import type { WpView } from "../../../descriptor.js";
import type { WpContext } from "../context.js";
import { restIndexView } from "./rest-index.js";
import { namespaceView } from "./namespace.js";
import { docView } from "./doc.js";
import { listView } from "./list.js";
import { createView } from "./create.js";
import { readView } from "./read.js";
import { updateView } from "./update.js";
import { deleteView } from "./delete.js";
import { appPasswordView } from "./app-password.js";

export type ViewKind = WpView | "index" | "app-password";

export interface View {
  run(ctx: WpContext): Promise<void> | void;
  /** Whether HEAD is served as the GET it stands for. */
  head: boolean;
  /** The request header the answer depends on, varied on for every method of the route. */
  varies?: string;
}

export const VIEWS: Record<ViewKind, View> = {
  index: { run: restIndexView, head: true },
  namespace: { run: namespaceView, head: true },
  doc: { run: docView, head: true, varies: "Accept" },
  // WordPress serves HEAD with the GET handler of a route that registers none of its own
  // (WP_REST_Server::match_request_to_handler, class-wp-rest-server.php): an archive's
  // headers (X-WP-Total, Link) without its body.
  archive: { run: listView, head: true },
  create: { run: createView, head: false },
  read: { run: readView, head: true },
  update: { run: updateView, head: false },
  delete: { run: deleteView, head: false },
  "app-password": { run: appPasswordView, head: false },
};
