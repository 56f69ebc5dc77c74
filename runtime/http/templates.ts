// Handlebars templates of the HTML pages (browsable API view, documentation page),
// compiled once at startup with `strict` so a missing variable fails loudly. HTML-escaping
// stays on: values are text; the one pre-escaped body is passed with triple braces.
import Handlebars from "handlebars";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = new URL("../../templates/", import.meta.url);

function load(name: string): HandlebarsTemplateDelegate {
  return Handlebars.compile(readFileSync(fileURLToPath(new URL(name, dir)), "utf8"), { strict: true });
}

export const templates = {
  browsable: load("browsable.html.hbs"),
  swagger: load("swagger.html.hbs"),
  redoc: load("redoc.html.hbs"),
  graphiql: load("graphiql.html.hbs"),
  login: load("login.html.hbs"),
};

export const escapeHtml = (s: string): string => Handlebars.escapeExpression(s);
