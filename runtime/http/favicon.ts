// The site's icon at `/favicon.ico`, where every browser asks for one whatever page it shows
// (the browsable view, Swagger UI, ReDoc, GraphiQL, a JSON reply): without it each first visit
// logs a failed request in the browser's console. A file shipped with the templates, cached
// for a day.
import express, { type RequestHandler } from "express";
import { fileURLToPath } from "node:url";

const ICON = fileURLToPath(new URL("../../templates/static/favicon.ico", import.meta.url));

export function favicon(): RequestHandler {
  const router = express.Router();
  router.get("/favicon.ico", (_req, res) => {
    res.sendFile(ICON, { maxAge: "1d", headers: { "Content-Type": "image/x-icon" } });
  });
  return router;
}
