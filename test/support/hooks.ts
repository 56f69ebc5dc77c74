// Mocha root hooks: the shared test server is stopped once, after every suite ran.
import { stopTestServer } from "./server.js";

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await stopTestServer();
  },
};
