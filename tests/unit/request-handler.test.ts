import type { createRequestHandler, ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { lazyRequestHandler } from "../../workers/request-handler";

/**
 * React Router derives its route tables on every request when it is given a function that
 * loads the build (workers/request-handler.ts): in production the portal hands it the build
 * itself, once per isolate.
 */
describe("the portal's React Router handler", () => {
  const build = { routes: {} } as unknown as ServerBuild;
  function recorder() {
    const made: unknown[] = [];
    const create = ((given: unknown) => {
      made.push(given);
      return async () => new Response("ok");
    }) as unknown as typeof createRequestHandler;
    return { made, create };
  }

  it("in production is made once, from the build object, whatever the number of requests", async () => {
    const { made, create } = recorder();
    let loads = 0;
    const load = async () => {
      loads++;
      return build;
    };
    const handler = lazyRequestHandler(load, "production", false, create);
    for (let i = 0; i < 3; i++) expect(await (await handler(new Request("http://portal.test/"))).text()).toBe("ok");
    expect(made).toEqual([build]); // an object: React Router derives once
    expect(loads).toBe(1);
  });

  it("in dev passes the loader on, so a rebuilt app is picked up", async () => {
    const { made, create } = recorder();
    const load = async () => build;
    lazyRequestHandler(load, "development", true, create);
    expect(made).toEqual([load]);
  });
});
