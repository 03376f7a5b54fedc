import { useEffect, useState } from "react";

/**
 * A hidden `js=1` field that exists only once the page is hydrated. Actions use it to
 * answer a fetcher (JavaScript) with data and a plain form post with Post/Redirect/Get.
 */
const JS_FIELD = "js";

export function JsMarker() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated ? <input type="hidden" name={JS_FIELD} value="1" /> : null;
}

export function submittedWithJavaScript(payload: Record<string, unknown> | FormData): boolean {
  const value = payload instanceof FormData ? payload.get(JS_FIELD) : payload[JS_FIELD];
  return value === "1";
}
