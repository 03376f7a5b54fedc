/**
 * Vientiane time, the portal's one clock (decision 071): every offset, day boundary and date
 * format of Asia/Vientiane is computed here, once.
 *
 * Laos keeps UTC+7 all year (no daylight saving), so Vientiane's wall clock is UTC shifted by
 * exactly seven hours: a Vientiane day D is the UTC interval [D-1 17:00, D 17:00). Plain
 * arithmetic on that fixed offset, no time-zone data and no package (core-is-pure, decision
 * 015), so the Worker, the browser and the tests read the same calendar. Bangkok (the game
 * providers' day) keeps the same offset. Instants are epoch milliseconds.
 */

const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export const VIENTIANE_OFFSET_MS = 7 * HOUR_MS;

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TYPED_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Vientiane's wall clock at an instant: a Date whose UTC fields (getUTCHours...) read Vientiane time. */
export function vientianeClock(at: number): Date {
  return new Date(at + VIENTIANE_OFFSET_MS);
}

/**
 * The instant of a Vientiane wall-clock time (month 1..12), or null when a field is out of
 * range or the date does not exist (31/02).
 */
export function vientianeInstant(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number | null {
  if (![year, month, day, hour, minute, second].every(Number.isInteger)) return null;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return null;
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day); // not Date.UTC, which reads a year below 100 as 19xx
  local.setUTCHours(hour, minute, second);
  if (local.getUTCDate() !== day) return null; // 31/02
  return local.getTime() - VIENTIANE_OFFSET_MS;
}

/**
 * A real calendar day 'YYYY-MM-DD' as its UTC midnight in ms (a whole number of DAY_MS: day
 * arithmetic adds DAY_MS), else null.
 */
export function calendarDayMs(day: string): number | null {
  const m = DAY_RE.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms;
}

/** [start, end) of the Vientiane day 'YYYY-MM-DD' in ms, or null when it is not a real day. */
export function vientianeDayBounds(day: string): { start: number; end: number } | null {
  const midnight = calendarDayMs(day);
  if (midnight === null) return null;
  return { start: midnight - VIENTIANE_OFFSET_MS, end: midnight + DAY_MS - VIENTIANE_OFFSET_MS };
}

/** When the Vientiane day holding `at` began (00:00 Vientiane). */
export function vientianeDayStart(at: number): number {
  const local = vientianeClock(at);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - VIENTIANE_OFFSET_MS;
}

/** When the Vientiane month holding `at` began (the 1st, 00:00 Vientiane). */
export function vientianeMonthStart(at: number): number {
  const local = vientianeClock(at);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - VIENTIANE_OFFSET_MS;
}

/** The same Vientiane wall-clock time `months` later; the 31st becomes the month's last day. */
export function addVientianeMonths(at: number, months: number): number {
  const local = vientianeClock(at);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(local.getUTCDate(), lastDay);
  return Date.UTC(y, m, day, local.getUTCHours(), local.getUTCMinutes(), local.getUTCSeconds(), local.getUTCMilliseconds()) - VIENTIANE_OFFSET_MS;
}

/** The Vientiane clock's minutes after midnight at `at`. */
export function vientianeMinutes(at: number): number {
  return Math.floor(((at + VIENTIANE_OFFSET_MS) % DAY_MS) / 60_000);
}

/** The Vientiane calendar day ('YYYY-MM-DD') of an instant. */
export function vientianeDate(at: Date | number): string {
  const ms = typeof at === "number" ? at : at.getTime();
  return vientianeClock(ms).toISOString().slice(0, 10);
}

/** The Vientiane wall clock of an instant as 'YYYY-MM-DDTHH:mm:ss' (ISO, no zone): slice it for less. */
export function vientianeDateTime(at: number): string {
  return vientianeClock(at).toISOString().slice(0, 19);
}

/** 'DD/MM/YYYY HH:mm:ss', the product's display of a time, in Vientiane. */
export function vientianeDisplay(at: number): string {
  const local = vientianeClock(at);
  const two = (n: number) => String(n).padStart(2, "0");
  const date = `${two(local.getUTCDate())}/${two(local.getUTCMonth() + 1)}/${String(local.getUTCFullYear()).padStart(4, "0")}`;
  return `${date} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`;
}

/**
 * A time staff typed in Vientiane time, 'YYYY-MM-DDTHH:mm' or 'YYYY-MM-DDTHH:mm:ss' (what a
 * datetime-local field sends), as an instant; null when it is not that or no real time.
 */
export function parseVientianeDateTime(text: string): number | null {
  const m = TYPED_RE.exec(text);
  if (!m) return null;
  return vientianeInstant(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), m[6] === undefined ? 0 : Number(m[6]));
}

/** The hour and minute of an instant in Vientiane, "14:30" (a deposit QR's "valid until", on the page and in its picture). */
export function vientianeTime(at: number): string {
  return vientianeDisplay(at).slice(11, 16);
}
