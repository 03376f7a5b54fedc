import { createCookieSessionStorage, type MiddlewareFunction, type SessionStorage } from "react-router";
import {
  redirectWithError as libRedirectWithError,
  redirectWithSuccess as libRedirectWithSuccess,
  redirectWithToast as libRedirectWithToast,
} from "remix-toast";
import { toastMiddleware as libToastMiddleware } from "remix-toast/middleware";
import { getBindings } from "./context.server";
import { toastCookieOptions } from "./cookies.server";
import { cookieSecrets, isSecureRequest, type SecretEnv } from "./secrets.server";

/** Toasts flash through our own signed cookie, never remix-toast's default secret. */
const storages = new Map<string, SessionStorage>();

export function toastStorage(env: SecretEnv, secure: boolean): SessionStorage {
  const secrets = cookieSecrets(env);
  const key = `${secure}|${secrets.join(",")}`;
  let storage = storages.get(key);
  if (!storage) {
    storage = createCookieSessionStorage({
      cookie: toastCookieOptions(secure, secrets),
    });
    storages.set(key, storage);
  }
  return storage;
}

export const toastMiddleware: MiddlewareFunction<Response> = (args, next) =>
  libToastMiddleware({ customSession: toastStorage(getBindings(args.context), isSecureRequest(args.request)) })(args, next) as Promise<Response>;

type ToastArgs = { request: Request; context: Parameters<typeof getBindings>[0] };

export function redirectWithSuccess({ request, context }: ToastArgs, url: string, message: string, init?: ResponseInit) {
  return libRedirectWithSuccess(url, message, init, toastStorage(getBindings(context), isSecureRequest(request)));
}

export function redirectWithError({ request, context }: ToastArgs, url: string, message: string, init?: ResponseInit) {
  return libRedirectWithError(url, message, init, toastStorage(getBindings(context), isSecureRequest(request)));
}

export function redirectWithToast({ request, context }: ToastArgs, url: string, toast: Parameters<typeof libRedirectWithToast>[1], init?: ResponseInit) {
  return libRedirectWithToast(url, toast, init, toastStorage(getBindings(context), isSecureRequest(request)));
}
