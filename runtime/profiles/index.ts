// The API profiles the runtime offers, by the name a spec's `profile` gives. A profile
// turns an API descriptor into an Express router mounted at the API's base path, and may
// claim its hot requests for the fast path (runtime/http/fast-path.ts).
import type { RequestHandler, Router } from "express";
import type { Knex } from "knex";
import type { ApiDescriptor } from "../descriptor.js";
import type { Config } from "../config.js";
import type { Identities } from "../auth/identities.js";
import type { Fixture } from "../fixtures.js";
import type { WriteOperation } from "../operations/index.js";
import type { FastRoutes } from "../http/fast-path.js";
import { drfMountPath, drfProfile } from "./drf/index.js";
import { clearSessions } from "./drf/commands.js";
import { requireAuthenticated } from "./drf/authentication.js";
import { createAppPassword, loadWordpressFixtures, wordpressNoRoute, wordpressProfile } from "./wordpress/index.js";

export interface ProfileDeps {
  api: ApiDescriptor;
  db: Knex;
  config: Config;
  identities?: Identities;
}

export interface Profile {
  /** Where the router is mounted, from the API's base path and the configuration. */
  mountPath(api: ApiDescriptor, config: Config): string;
  mount(deps: ProfileDeps): Mounted;
  /** `Link` header values the site root (`/`) carries so clients can discover the API from the site URL. */
  siteLinks?(config: Config, origin: string): string[];
  /** Answers what no API of the profile took under a path the profile owns (mounted after all APIs). */
  notFound?(config: Config): { path: string; handler: RequestHandler };
  /** Loads demo fixtures the profile's own way; the generic Store is used when absent. */
  loadFixtures?(op: WriteOperation, api: ApiDescriptor, fixtures: Fixture[], userId?: string): Promise<number>;
  /** The lines `run` prints for the API: where it is served (under `base`, the server's URL) and its docs. */
  announce(api: ApiDescriptor, config: Config, base: string): string[];
  /** Command-line commands the profile adds, by name; each gives the line to print. */
  commands?: Record<string, ProfileCommand>;
  /** Lets on only requests its authentication takes (a site route of the API that owns the users: `/metrics`), answering others in its words. */
  requireAuthenticated?(deps: ProfileDeps): RequestHandler;
}

/** An API as its profile serves it: the router, and what it answers without Express, sharing every service. */
export interface Mounted {
  router: Router;
  fast?: FastRoutes;
}

export interface CommandOptions {
  username?: string;
  name?: string;
}

/** A profile's command: runs against the APIs of that profile (and the identities of all). */
export type ProfileCommand = (deps: { op: WriteOperation; apis: ApiDescriptor[]; identities?: Identities; opts: CommandOptions }) => Promise<string>;

export const profiles: Record<string, Profile> = {
  drf: {
    mountPath: drfMountPath,
    mount: drfProfile,
    announce: (api, _config, base) => [`  ${api.title}: ${base}${api.basePath}`, `    docs: ${base}${api.basePath}docs/`],
    commands: { clearsessions: clearSessions },
    requireAuthenticated,
  },
  wordpress: {
    mountPath: (_api, config) => config.wpApiRoot,
    mount: wordpressProfile,
    announce: (api, config, base) => [`  ${api.title}: ${base}${config.wpApiRoot}${api.basePath}`],
    commands: { "create-app-password": createAppPassword },
    // A WordPress site advertises its REST root on every page, the home page included.
    siteLinks: (config, origin) => [`<${origin}${config.wpApiRoot}/>; rel="https://api.w.org/"`],
    // Everything under the REST root is WordPress's: unknown paths get its error, not the site's.
    notFound: (config) => ({ path: config.wpApiRoot, handler: wordpressNoRoute(config) }),
    loadFixtures: loadWordpressFixtures,
  },
};
