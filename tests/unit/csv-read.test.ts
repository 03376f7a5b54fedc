import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { readCsv, readCsvWith } from "../../workers/core/csv";
import { seeded } from "../setup/random";

/**
 * The statement reader (decision 094, in place of papaparse) against papaparse itself as the
 * model: random files of quoted and unquoted fields (separators, quotes, line breaks and Lao text
 * inside), CRLF, LF or CR endings, blank lines, with and without a final line break, for each
 * separator; and the separator guessed from files a bank writes.
 */
const papa = (text: string, delimiter: string) => Papa.parse<string[]>(text, { delimiter, skipEmptyLines: false }).data.filter((row) => Array.isArray(row));

describe("readCsvWith", () => {
  it("reads what papaparse reads, field for field, over random files", () => {
    const r = seeded(94);
    const pieces = ["a", "12.50", "ສົມໃຈ", " ", "x y", "", "-5", "'="];
    for (let round = 0; round < 400; round++) {
      const separator = r.pick([",", ";", "\t", "|"]);
      const ending = r.pick(["\r\n", "\n", "\r"]);
      const fields = 1 + r.int(5);
      const lines: string[] = [];
      for (let l = 0, n = 1 + r.int(6); l < n; l++) {
        if (r.chance(0.1)) {
          lines.push("");
          continue;
        }
        const cells: string[] = [];
        for (let f = 0; f < fields; f++) {
          let cell = r.pick(pieces);
          if (r.chance(0.3)) cell += r.pick([separator, '"', "\n", "\r\n", ","]) + r.pick(pieces);
          const mustQuote = cell.includes(separator) || cell.includes('"') || cell.includes("\n") || cell.includes("\r");
          cells.push(mustQuote || r.chance(0.2) ? `"${cell.replaceAll('"', '""')}"` : cell);
        }
        lines.push(cells.join(separator));
      }
      const text = lines.join(ending) + (r.chance(0.5) ? ending : "");
      expect(readCsvWith(text, separator), JSON.stringify({ text, separator })).toEqual(papa(text, separator));
    }
  });
});

describe("readCsv", () => {
  it("guesses the separator a bank's export uses", () => {
    expect(readCsv("Date;Amount;Description\r\n01/12/2026;1.000,00;TRANSFER, BCEL\r\n")[1]).toEqual(["01/12/2026", "1.000,00", "TRANSFER, BCEL"]);
    expect(readCsv("Date\tAmount\tRef\n01/12/2026\t1,000.00\tA;B\n")[1]).toEqual(["01/12/2026", "1,000.00", "A;B"]);
    expect(readCsv('Date,Amount,Ref\n01/12/2026,"1,000.00",x|y\n')[1]).toEqual(["01/12/2026", "1,000.00", "x|y"]);
    expect(readCsv("Date|Amount\n01/12/2026|500\n")[1]).toEqual(["01/12/2026", "500"]);
    // one column: nothing to guess, commas
    expect(readCsv("only\nvalues")).toEqual([["only"], ["values"]]);
  });
});
