// Three openapi-fetch clients over one connection setting: `api` for every operation as the
// document types it (full forms, one object created per POST), `brief` for GETs in the brief
// form (its types require `brief`), `bulk` for POSTs of a list (typed as arrays both ways).
// Each reads JSON replies only: a list's other media type is its `?export=<template>` rendering.
import createClient, { type ClientOptions } from "openapi-fetch";
import type { paths } from "./types/inventory.js";
import type { paths as briefPaths } from "./types/inventory-brief.js";
import type { paths as bulkPaths } from "./types/inventory-bulk.js";

export function inventoryClients(options: ClientOptions) {
  return {
    api: createClient<paths, "application/json">(options),
    brief: createClient<briefPaths, "application/json">(options),
    bulk: createClient<bulkPaths, "application/json">(options),
  };
}
