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

/*
 * What staff type into the back office's date fields (decision 088). A native date or
 * datetime-local field shows the browser's locale (mm/dd/yyyy under an en-US Chromium) while
 * every page shows DD/MM/YYYY, so those fields are plain text fields read here: the day first,
 * 24-hour times. One or two digits for the day, month, hour; "/", ".", "-" or a space between
 * the parts of the date, or none at all ("02122026", "0705": a phone's number pad may have no
 * "/" or ":"); spaces around are ignored. A link the
 * portal wrote itself carries the ISO day ('YYYY-MM-DD', the report presets, a bank day's
 * neighbours), which is read too.
 */
const TYPED_DAY_RE = /^(\d{1,2})[/.\- ](\d{1,2})[/.\- ](\d{4})$|^(\d{2})(\d{2})(\d{4})$/;
const TYPED_DAY_TIME_RE = /^(\d{1,2})[/.\- ](\d{1,2})[/.\- ](\d{4})[ T]+(\d{1,2})[:.](\d{2})(?:[:.](\d{2}))?$/;
const TYPED_TIME_RE = /^(\d{1,2})[:.](\d{2})$|^(\d{2})(\d{2})$/;

const two = (n: number) => String(n).padStart(2, "0");

/** A day typed as DD/MM/YYYY (or a link's 'YYYY-MM-DD') as 'YYYY-MM-DD'; null when it is neither or no real day (31/02). */
export function parseTypedDay(text: string): string | null {
  const trimmed = text.trim();
  const m = TYPED_DAY_RE.exec(trimmed);
  const [day, month, year] = m ? (m[1] === undefined ? [m[4], m[5], m[6]] : [m[1], m[2], m[3]]) : [];
  const iso = m ? `${year}-${two(Number(month))}-${two(Number(day))}` : trimmed;
  return calendarDayMs(iso) === null ? null : iso;
}

/**
 * A Vientiane time typed as 'DD/MM/YYYY HH:mm' or 'DD/MM/YYYY HH:mm:ss' (24-hour), or the
 * 'YYYY-MM-DDTHH:mm[:ss]' a datetime-local field sent, as an instant; null when it is none of
 * them or no real time (31/02, 24:00).
 */
export function parseTypedDateTime(text: string): number | null {
  const trimmed = text.trim();
  const m = TYPED_DAY_TIME_RE.exec(trimmed);
  if (!m) return parseVientianeDateTime(trimmed);
  return vientianeInstant(Number(m[3]), Number(m[2]), Number(m[1]), Number(m[4]), Number(m[5]), m[6] === undefined ? 0 : Number(m[6]));
}

/** A time of day typed as 'HH:mm' (24-hour, "7:05" too) as 'HH:mm'; null when it is not one (24:00, 12:60, "7 pm"). */
export function parseTypedTime(text: string): string | null {
  const m = TYPED_TIME_RE.exec(text.trim());
  if (!m) return null;
  const [hour, minute] = m[1] === undefined ? [Number(m[3]), Number(m[4])] : [Number(m[1]), Number(m[2])];
  return hour > 23 || minute > 59 ? null : `${two(hour)}:${two(minute)}`;
}

/** 'YYYY-MM-DD' as a date field shows it, 'DD/MM/YYYY'; anything else (a value staff typed and the page keeps) as it is. */
export function typedDayValue(day: string): string {
  const m = DAY_RE.exec(day);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : day;
}

/** An instant as a date-and-time field shows it, 'DD/MM/YYYY HH:mm' in Vientiane. */
export function typedDateTimeValue(at: number): string {
  return vientianeDisplay(at).slice(0, 16);
}
