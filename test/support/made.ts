// Objects a test file makes through the inventory API as its server's superuser, and the
// definitions among them (custom fields, relationships, tags: `extras/`), which show on every
// object of a model and so are deleted again when the file is done, newest first.
import { expect } from "chai";
import type { TestServer } from "./server.js";

export interface Maker {
  /** POSTs `body` to `/api/<path>`, requiring a 201; gives the object made. */
  post(path: string, body: unknown): Promise<{ id: string; url: string } & Record<string, string>>;
  /** Deletes the definitions made, newest first, requiring a 204 for each. */
  removeDefinitions(): Promise<void>;
}

export function maker(server: TestServer): Maker {
  const definitions: string[] = [];
  const headers = { Authorization: `Token ${server.token}`, "Content-Type": "application/json", Accept: "application/json" };
  return {
    async post(path, body) {
      const res = await fetch(`${server.url}/api/${path}`, { method: "POST", headers, body: JSON.stringify(body) });
      expect(res.status, `${path}: ${await res.clone().text()}`).to.equal(201);
      const made = await res.json() as { id: string; url: string } & Record<string, string>;
      if (path.startsWith("extras/")) definitions.push(made.url);
      return made;
    },
    async removeDefinitions() {
      for (const url of definitions.reverse()) {
        const res = await fetch(url, { method: "DELETE", headers: { Authorization: `Token ${server.token}` } });
        expect(res.status, url).to.equal(204);
      }
      definitions.length = 0;
    },
  };
}
