// ReDoc's bundle, served from the installed `redoc` package. Its sidebar credit ("API docs by
// Redocly") shows a logo fetched from cdn.redoc.ly, which the content-security policy refuses
// (a console error on every visit) and which would tell a third party who reads the docs; the
// bundle is served with that one address replaced by an empty inline image, the credit kept.
// Read and rewritten once per process, on the first request; the other files of the package
// are served as they are.
import express, { type Router } from "express";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const BUNDLE = "redoc.standalone.js";
const CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const EMPTY_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";

export function redocAssets(): Router {
  const dir = join(dirname(createRequire(import.meta.url).resolve("redoc/package.json")), "bundles");
  let bundle: string | undefined;
  const router = express.Router();
  router.get(`/${BUNDLE}`, (_req, res) => {
    bundle ??= readFileSync(join(dir, BUNDLE), "utf8").replaceAll(CDN_LOGO, EMPTY_IMAGE);
    res.type("js").send(bundle);
  });
  router.use(express.static(dir, { index: false }));
  return router;
}
