import { createRequestHandler, type ServerBuild } from "react-router";

type RequestHandler = ReturnType<typeof createRequestHandler>;

/**
 * React Router's request handler, made once per isolate from the server build.
 *
 * Given a FUNCTION that loads the build, `createRequestHandler` calls it and derives its
 * route tables again on every request (react-router's server-runtime `createRequestHandler`:
 * `derive(build)` = createStaticHandler, flattening and ranking every route, compiling their
 * paths) so that a dev server can swap the build. Given the build itself it derives once. In
 * production the build never changes, so it is loaded on the first request (the module stays
 * lazy: the Worker's global scope, and so its startup, does not grow) and handed over as an
 * object; the handler is kept. Profiled under a crowd (scripts/worker-profile.mjs, decision 035),
 * the per-request derive was about 6 % of the portal's CPU.
 *
 * `dev`: the build may change between requests (vite's hot reload): the function is passed on.
 */
export function lazyRequestHandler(
  load: () => Promise<ServerBuild>,
  mode: string | undefined,
  dev: boolean,
  create: typeof createRequestHandler = createRequestHandler,
): RequestHandler {
  if (dev) return create(load, mode);
  let handler: RequestHandler | null = null;
  return async (request, context) => {
    // Two first requests at once may both create one: the same build, either is right.
    handler ??= create(await load(), mode);
    return handler(request, context);
  };
}
