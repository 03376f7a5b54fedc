/**
 * The parts a lite page's inline script runs, by name (its config's `parts`,
 * app/lib/lite/parts.ts): the build minifies the parts' code, so their names are read here.
 */
export function litePartsIn(html: string): string[] {
  const list = /"parts":(\[[^\]]*\])/.exec(html)?.[1];
  return list ? (JSON.parse(list) as string[]) : [];
}

/** The page without its scripts: its markup only (a part's source names the selectors it looks for). */
export function markupOf(html: string): string {
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");
}
