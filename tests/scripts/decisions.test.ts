import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The decision records (docs/decisions/) and every reference to them.
 *
 * - Every "decision NNN" written in code, tests, scripts, configs and docs names a record that
 *   exists, and every path to a record (`docs/decisions/015-layers-and-import-rules.md`, or the
 *   bare file name) is a file that exists. A failure names file:line.
 * - Each record is one page: a unique number, a title, the four sections Context, Decision,
 *   Consequences and Status in that order, at most MAX_LINES lines.
 * - Its Status says Accepted or Superseded by [NNN](...); an amendment or a supersession is
 *   linked both ways ("Amends [NNN]" <-> "Amended by [NNN]", "Supersedes" <-> "Superseded by").
 * - docs/decisions/README.md (the index) lists every record, and says "Superseded" exactly for
 *   the superseded ones.
 */

const DIR = "docs/decisions";
const MAX_LINES = 80;
const SECTIONS = ["Context", "Decision", "Consequences", "Status"];

/** Where references are looked for: the code, tests, scripts, configs and docs; folders are walked. */
const SCANNED = [
  "app",
  "workers",
  "scripts",
  "tests",
  "docs",
  ".ci",
  "README.md",
  "playwright.config.ts",
  "vite.config.ts",
  "wrangler.toml",
  ".dependency-cruiser.cjs",
  "knip.jsonc",
  ...readdirSync(".").filter((name) => /^vitest.*\.ts$/.test(name)),
];
/** Generated, installed or binary folders inside the scanned ones. */
const SKIPPED = new Set(["node_modules", ".local", "build", "dist", ".wrangler", ".react-router", "test-results", "playwright-report", "screenshots"]);

const NUMBER = String.raw`\d{3}(?!\d)`;
/** Spaces, line breaks and the comment leaders a wrapped comment puts between words. */
const GAP = String.raw`[\s*#/>-]*`;
/**
 * "decision 046", "Decision 019 |", "decisions 046 and 047", "decisions 021, 022, 028, 032",
 * "(decision\n  // 055)", "decisions/015-..." (the number of a path).
 */
const DECISION_NUMBERS = new RegExp(String.raw`\bdecisions?${GAP}(?:record${GAP})?(${NUMBER}(?:${GAP}(?:,|;|\band\b|\bor\b|&)${GAP}${NUMBER})*)`, "gi");
/** A record's file name, with or without its folder: `026-e2e-matrix.md`. */
const RECORD_FILE = /(?<![\w-])(\d{3}-[a-z0-9][a-z0-9-]*\.md)\b/g;
/**
 * In Markdown outside the records (README.md, docs/*.md), a bare number in a list of decisions
 * between brackets: "(034)", "(026, 039)", "(044; ... 043)", "budgets; 037, 038)".
 */
const BARE_NUMBER = /(?<=[(,;]\s?)(0\d\d)(?=\s*[),;])/g;
/** "[027](027-budgets-held-today.md)": the number shown and the file linked must agree. */
const LINK = /\[(\d{3})\]\((\d{3})-[a-z0-9-]+\.md\)/g;

type DecisionRecord = { file: string; number: string; lines: string[]; text: string };

function walk(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((name) => !SKIPPED.has(name))
    .flatMap((name) => walk(join(path, name)));
}

function readText(path: string): string | null {
  const text = readFileSync(path, "utf8");
  return text.includes("\0") ? null : text;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function records(): DecisionRecord[] {
  return readdirSync(DIR)
    .filter((name) => name !== "README.md")
    .sort()
    .map((file) => {
      const text = readFileSync(join(DIR, file), "utf8");
      return { file, number: file.slice(0, 3), text, lines: text.replace(/\n$/, "").split("\n") };
    });
}

/** Each reference in a text: a decision number, or a record's file name, with its line. */
function referencesIn(text: string, path: string): { line: number; number?: string; file?: string }[] {
  const found: { line: number; number?: string; file?: string }[] = [];
  for (const match of text.matchAll(DECISION_NUMBERS)) {
    for (const number of match[1].match(/\d{3}/g) ?? []) found.push({ line: lineOf(text, match.index), number });
  }
  for (const match of text.matchAll(RECORD_FILE)) found.push({ line: lineOf(text, match.index), file: match[1] });
  if (path.endsWith(".md") && !path.startsWith(`${DIR}/`)) {
    for (const match of text.matchAll(BARE_NUMBER)) found.push({ line: lineOf(text, match.index), number: match[1] });
  }
  return found;
}

/** The Status section's relations: keyword -> the numbers linked after it (up to the next keyword). */
function relations(status: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const parts = status.replace(/\s+/g, " ").split(/\b(Superseded by|Supersedes|Amended by|Amends)\b/);
  for (let i = 1; i < parts.length; i += 2) {
    const numbers = [...parts[i + 1].matchAll(/\[(\d{3})\]\(/g)].map((m) => m[1]);
    out.set(parts[i], [...(out.get(parts[i]) ?? []), ...numbers]);
  }
  return out;
}

function sectionOf(record: DecisionRecord, name: string): string {
  const start = record.lines.indexOf(`## ${name}`);
  if (start < 0) return "";
  const end = record.lines.findIndex((line, i) => i > start && line.startsWith("## "));
  return record.lines.slice(start + 1, end < 0 ? undefined : end).join("\n");
}

const all = records();
const byNumber = new Map(all.map((record) => [record.number, record]));
const fileNames = new Set(all.map((record) => record.file));

describe("decision records", () => {
  it("every decision referenced in code, tests, scripts, configs and docs exists", () => {
    const problems: string[] = [];
    for (const path of SCANNED.flatMap(walk)) {
      const text = readText(path);
      if (text === null) continue;
      for (const ref of referencesIn(text, path)) {
        if (ref.number && !byNumber.has(ref.number)) problems.push(`${path}:${ref.line}: decision ${ref.number} has no file ${DIR}/${ref.number}-*.md`);
        if (ref.file && !fileNames.has(ref.file)) problems.push(`${path}:${ref.line}: ${ref.file} is not a file of ${DIR}`);
      }
      for (const match of text.matchAll(LINK)) {
        if (match[1] !== match[2]) problems.push(`${path}:${lineOf(text, match.index)}: the link [${match[1]}] points at ${match[2]}-...`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("every record has a number of its own, a title and a file name of the form NNN-words.md", () => {
    const problems: string[] = [];
    const seen = new Map<string, string>();
    for (const record of all) {
      if (!/^\d{3}-[a-z0-9][a-z0-9-]*\.md$/.test(record.file)) problems.push(`${DIR}/${record.file}: not NNN-words.md`);
      const twin = seen.get(record.number);
      if (twin) problems.push(`${DIR}/${record.file}: number ${record.number} is also ${twin}`);
      seen.set(record.number, record.file);
      if (!new RegExp(`^# ${record.number} \\S`).test(record.lines[0] ?? ""))
        problems.push(`${DIR}/${record.file}:1: the title is not "# ${record.number} <title>"`);
    }
    expect(problems).toEqual([]);
  });

  it(`every record is one page: Context, Decision, Consequences, Status, at most ${MAX_LINES} lines`, () => {
    const problems: string[] = [];
    for (const record of all) {
      const headings = record.lines.filter((line) => line.startsWith("## ")).map((line) => line.slice(3));
      if (headings.join("|") !== SECTIONS.join("|"))
        problems.push(`${DIR}/${record.file}: sections ${JSON.stringify(headings)}, not ${JSON.stringify(SECTIONS)}`);
      if (record.lines.length > MAX_LINES) problems.push(`${DIR}/${record.file}: ${record.lines.length} lines (at most ${MAX_LINES})`);
    }
    expect(problems).toEqual([]);
  });

  it("every Status says Accepted or Superseded by, and amendments and supersessions are linked both ways", () => {
    const problems: string[] = [];
    const inverse: { [keyword: string]: string } = { "Superseded by": "Supersedes", Supersedes: "Superseded by", "Amended by": "Amends", Amends: "Amended by" };
    for (const record of all) {
      const status = sectionOf(record, "Status").trim();
      if (!/^(Accepted\b|Superseded by \[\d{3}\]\()/.test(status))
        problems.push(`${DIR}/${record.file}: the Status does not start with "Accepted" or "Superseded by [NNN](...)"`);
      for (const [keyword, numbers] of relations(status)) {
        for (const number of numbers) {
          const other = byNumber.get(number);
          if (!other) continue; // reported by the first test
          if (number === record.number) problems.push(`${DIR}/${record.file}: "${keyword}" names itself`);
          else if (!(relations(sectionOf(other, "Status")).get(inverse[keyword]) ?? []).includes(record.number)) {
            problems.push(`${DIR}/${record.file}: "${keyword} [${number}]", but ${other.file} has no "${inverse[keyword]} [${record.number}]" in its Status`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("docs/decisions/README.md lists every record, superseded ones as superseded", () => {
    const index = readFileSync(join(DIR, "README.md"), "utf8").split("\n");
    const problems: string[] = [];
    for (const record of all) {
      const row = index.findIndex((line) => line.includes(`(${record.file})`));
      if (row < 0) {
        problems.push(`${DIR}/README.md: ${record.file} is not listed`);
        continue;
      }
      const superseded = sectionOf(record, "Status").trim().startsWith("Superseded by");
      if (superseded !== index[row].includes("Superseded"))
        problems.push(`${DIR}/README.md:${row + 1}: ${record.file} is ${superseded ? "" : "not "}superseded`);
    }
    expect(problems).toEqual([]);
  });
});
