// The DRF profile's commands: `clearsessions`, Django's, which removes the browser sessions
// (read-only tokens the login page issued) that have expired, as the command's deletes.
import type { ProfileCommand } from "../index.js";
import { Engine } from "../../engine.js";
import { Tokens } from "../../auth/tokens.js";
import { SESSION_DESCRIPTION } from "./browser-session.js";

export const clearSessions: ProfileCommand = async ({ op, apis }) => {
  let removed = 0;
  for (const api of apis.filter((a) => a.auth?.tokens)) {
    const { index, store } = new Engine(api, op.trx);
    removed += await new Tokens(index, store, index.model(api.auth!.tokens!)).removeExpired(op, SESSION_DESCRIPTION);
  }
  return `expired sessions removed: ${removed}`;
};
