/**
 * The substring condition of the back office's display-name search (decision 050; prefixes
 * are index ranges since decision 077, workers/core/keyset.ts prefixRange). Not LIKE: D1 refuses a LIKE or GLOB pattern longer than 50 bytes ("LIKE or
 * GLOB pattern too complex", checked against the first row, so a list with rows answered
 * 500), and a Lao letter is 3 bytes: `%ສົມສັກ ພົມມະວົງສາ%` is 51. instr() takes a needle of
 * any length and reads it literally, so '%' and '_' need no escaping. Both sides go through
 * SQLite's lower(), which folds ASCII only, as LIKE did (a caller may lower-case its value in
 * JavaScript too, which folds Vietnamese capitals as well). It uses no index; neither did
 * '%...%'.
 *
 * `param` is the SQL placeholder ("?2", or "?" for a caller that numbers them itself); it is
 * written once, so a caller that numbers the first "?" it finds gets it right.
 */
export function containsText(column: string, param: string): string {
  return `instr(lower(${column}), lower(${param})) > 0`;
}
