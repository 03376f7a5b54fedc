/**
 * The sandbox games' pictures as drawings (320x240 SVG), made to pass for a provider's own
 * game art: a scene of the game (reels, fish, cards, a wheel, dice, a rooster...), a glow,
 * and the title in gold. Not served as SVG: real providers serve raster thumbnails, and
 * Chromium builds a page per SVG <img> (decision 037). scripts/render-demo-images.mjs
 * renders each one to WebP once, into game-pictures.ts, which the sandbox serves.
 * Flat fills and smooth gradients, no noise: a picture stays a few KB (a lobby's first
 * screen holds four of them within the page budget, decision 082).
 */

type Scene = "reels" | "dragon" | "river" | "fish" | "cards" | "candy" | "olympus" | "football" | "roulette" | "dice" | "live" | "chicken";

type Art = { scene: Scene; bg: [string, string]; hand?: readonly [string, boolean][] };

/** Each game's scene and its two background colours (centre, edge); a card game its hand. */
const ART: Record<string, Art> = {
  "amb-lucky-reels": { scene: "reels", bg: ["#7c2d12", "#1c0a05"] },
  "amb-golden-dragon": { scene: "dragon", bg: ["#b91c1c", "#2a0505"] },
  "amb-mekong-fortune": { scene: "river", bg: ["#0e7490", "#062430"] },
  "amb-fish-hunter": { scene: "fish", bg: ["#0284c7", "#071a3a"] },
  "amb-pokdeng": {
    scene: "cards",
    bg: ["#166534", "#04190c"],
    hand: [
      ["5", false],
      ["4", true],
      ["9", true],
    ],
  },
  "bf-sweet-bonanza": { scene: "candy", bg: ["#f472b6", "#6b1446"] },
  "bf-gates-olympus": { scene: "olympus", bg: ["#6d28d9", "#150734"] },
  "bf-football-live": { scene: "football", bg: ["#15803d", "#052e16"] },
  "gc-baccarat": {
    scene: "cards",
    bg: ["#9f1239", "#2a0410"],
    hand: [
      ["Q", true],
      ["9", false],
      ["K", true],
    ],
  },
  "gc-roulette": { scene: "roulette", bg: ["#065f46", "#03170f"] },
  "gc-sicbo": { scene: "dice", bg: ["#1e3a8a", "#060d24"] },
  "gcl-baccarat-live": { scene: "live", bg: ["#7f1d1d", "#170404"] },
  "ab-chicken-fight": { scene: "chicken", bg: ["#c2410c", "#2b0d02"] },
  "ab-hi-lo": { scene: "cards", bg: ["#312e81", "#0b0a24"] },
};

const GOLD = `<linearGradient id="gold" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff7c2"/><stop offset=".45" stop-color="#fbbf24"/><stop offset="1" stop-color="#b45309"/></linearGradient>`;

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

/** Light rays from the centre, as slot games draw behind their logo. */
function rays(cx: number, cy: number, count: number, opacity: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const a = (i / count) * Math.PI * 2;
    const b = a + Math.PI / count / 1.6;
    const r = 260;
    parts.push(
      `M${cx} ${cy}L${(cx + r * Math.cos(a)).toFixed(1)} ${(cy + r * Math.sin(a)).toFixed(1)}L${(cx + r * Math.cos(b)).toFixed(1)} ${(cy + r * Math.sin(b)).toFixed(1)}Z`,
    );
  }
  return `<path d="${parts.join("")}" fill="#fff" fill-opacity="${opacity}"/>`;
}

function coin(x: number, y: number, r: number): string {
  return `<circle cx="${x}" cy="${y}" r="${r}" fill="url(#gold)" stroke="#92400e" stroke-width="2"/><circle cx="${x}" cy="${y}" r="${(r * 0.62).toFixed(1)}" fill="none" stroke="#92400e" stroke-opacity=".6" stroke-width="2"/>`;
}

const HEART = "M0 6C-9-3-14 4-8 11L0 19L8 11C14 4 9-3 0 6Z";
const SPADE = "M0-2C-8 7-14 12-8 17C-5 20-1 18 0 15C1 18 5 20 8 17C14 12 8 7 0-2ZM-3 16L-5 24H5L3 16Z";

/** A playing card, its top-left at (x, y), turned by `angle` degrees about its centre. */
function card(x: number, y: number, angle: number, rank: string, red: boolean): string {
  const colour = red ? "#dc2626" : "#111827";
  const suit = red ? HEART : SPADE;
  return `<g transform="rotate(${angle} ${x + 36} ${y + 50})"><rect x="${x}" y="${y}" width="72" height="100" rx="8" fill="#fff" stroke="#d4d4d8" stroke-width="2"/><text x="${x + 9}" y="${y + 24}" font-family="DejaVu Sans, sans-serif" font-weight="700" font-size="20" fill="${colour}">${rank}</text><path d="${suit}" transform="translate(${x + 36} ${y + 46}) scale(1.5)" fill="${colour}"/></g>`;
}

function die(x: number, y: number, size: number, angle: number, pips: number): string {
  const spots: Record<number, [number, number][]> = {
    1: [[0.5, 0.5]],
    2: [
      [0.25, 0.25],
      [0.75, 0.75],
    ],
    3: [
      [0.25, 0.25],
      [0.5, 0.5],
      [0.75, 0.75],
    ],
    4: [
      [0.27, 0.27],
      [0.73, 0.27],
      [0.27, 0.73],
      [0.73, 0.73],
    ],
    5: [
      [0.27, 0.27],
      [0.73, 0.27],
      [0.5, 0.5],
      [0.27, 0.73],
      [0.73, 0.73],
    ],
    6: [
      [0.27, 0.25],
      [0.73, 0.25],
      [0.27, 0.5],
      [0.73, 0.5],
      [0.27, 0.75],
      [0.73, 0.75],
    ],
  };
  const dots = (spots[pips] ?? [])
    .map(
      ([u, v]) =>
        `<circle cx="${(x + u * size).toFixed(1)}" cy="${(y + v * size).toFixed(1)}" r="${(size * 0.09).toFixed(1)}" fill="${pips === 1 ? "#dc2626" : "#111827"}"/>`,
    )
    .join("");
  return `<g transform="rotate(${angle} ${x + size / 2} ${y + size / 2})"><rect x="${x}" y="${y}" width="${size}" height="${size}" rx="${size * 0.18}" fill="#fafafa" stroke="#a1a1aa" stroke-width="2"/>${dots}</g>`;
}

function fishShape(x: number, y: number, scale: number, colour: string, flip: boolean): string {
  return `<g transform="translate(${x} ${y}) scale(${flip ? -scale : scale} ${scale})"><path d="M-30 0C-14-20 18-20 30 0C18 20-14 20-30 0Z" fill="${colour}"/><path d="M28 0L48-16V16Z" fill="${colour}"/><path d="M-6-15C0-26 10-24 14-14Z" fill="${colour}" fill-opacity=".7"/><circle cx="-16" cy="-4" r="4.5" fill="#fff"/><circle cx="-17" cy="-4" r="2.2" fill="#111"/></g>`;
}

/** The middle of the picture: what the game is about. */
function sceneOf({
  scene,
  hand = [
    ["A", false],
    ["K", true],
    ["9", true],
  ],
}: Art): string {
  switch (scene) {
    case "reels": {
      const symbols = [
        ["7", "#dc2626"],
        ["7", "#dc2626"],
        ["7", "#dc2626"],
      ] as const;
      return `${rays(160, 92, 18, 0.08)}<rect x="46" y="34" width="228" height="116" rx="16" fill="url(#gold)"/><rect x="56" y="44" width="208" height="96" rx="10" fill="#1f1020"/>${symbols
        .map(
          ([s, c], i) =>
            `<rect x="${64 + i * 66}" y="50" width="60" height="84" rx="8" fill="#fff"/><text x="${94 + i * 66}" y="118" font-family="DejaVu Sans, sans-serif" font-weight="700" font-size="60" fill="${c}" text-anchor="middle">${s}</text>`,
        )
        .join("")}${coin(40, 160, 16)}${coin(284, 150, 13)}`;
    }
    case "dragon":
      return `${rays(160, 96, 16, 0.1)}<circle cx="160" cy="92" r="58" fill="url(#gold)"/><path d="M104 120C120 70 150 130 172 84C190 48 222 62 232 40C240 70 214 96 196 100C222 104 236 126 258 118C240 148 206 140 188 128C168 150 132 152 104 120Z" fill="#b91c1c" stroke="#450a0a" stroke-width="3"/><circle cx="218" cy="58" r="4" fill="#fde047"/><path d="M232 40L248 28L242 46Z" fill="#fde047"/>${coin(64, 150, 15)}${coin(262, 160, 12)}`;
    case "river":
      return `<circle cx="232" cy="62" r="30" fill="#fde68a" fill-opacity=".85"/><path d="M0 120C50 100 90 140 160 118C220 98 270 132 320 112V180H0Z" fill="#0891b2"/><path d="M0 140C60 124 110 156 170 138C230 120 280 150 320 134V180H0Z" fill="#155e75"/><path d="M86 108C100 84 124 84 138 108C124 100 100 100 86 108Z" fill="#f472b6"/><path d="M112 108C104 86 112 70 112 70C112 70 120 86 112 108Z" fill="#f9a8d4"/>${coin(200, 118, 17)}${coin(234, 128, 13)}${coin(60, 152, 12)}`;
    case "fish":
      return `<circle cx="70" cy="40" r="6" fill="#fff" fill-opacity=".3"/><circle cx="86" cy="70" r="4" fill="#fff" fill-opacity=".3"/><circle cx="260" cy="50" r="5" fill="#fff" fill-opacity=".3"/>${fishShape(112, 92, 1.5, "#f97316", false)}${fishShape(236, 70, 0.9, "#facc15", true)}${fishShape(226, 140, 1, "#22d3ee", true)}<g stroke="#ef4444" stroke-width="4" fill="none"><circle cx="112" cy="92" r="34"/><path d="M112 50V70M112 114V134M70 92H90M134 92H154"/></g><path d="M0 168C60 150 120 176 180 160C240 146 280 168 320 158V180H0Z" fill="#0c4a6e"/>`;
    case "cards":
      return `${rays(160, 110, 14, 0.07)}<ellipse cx="160" cy="166" rx="150" ry="22" fill="#000" fill-opacity=".25"/>${hand
        .map(([rank, red], i) => card(62 + i * 62, i === 1 ? 30 : 44, (i - 1) * 18, rank, red))
        .join("")}${coin(70, 154, 13)}${coin(254, 156, 13)}`;
    case "candy":
      return `${rays(160, 92, 20, 0.12)}<circle cx="104" cy="94" r="36" fill="#ef4444"/><path d="M80 70C100 96 110 110 104 130" stroke="#fff" stroke-width="8" fill="none" stroke-opacity=".7"/><circle cx="206" cy="86" r="32" fill="#a855f7"/><path d="M188 62C202 84 214 96 224 114" stroke="#fff" stroke-width="7" fill="none" stroke-opacity=".7"/><path d="M140 150L160 112L180 150Z" fill="#22c55e"/><circle cx="160" cy="60" r="20" fill="#facc15"/><circle cx="262" cy="150" r="14" fill="#38bdf8"/><circle cx="52" cy="150" r="14" fill="#fb923c"/>`;
    case "olympus":
      return `${rays(160, 70, 16, 0.09)}<rect x="50" y="60" width="220" height="14" fill="url(#gold)"/><path d="M40 60L160 24L280 60Z" fill="url(#gold)"/>${[
        66, 116, 186, 236,
      ]
        .map((x) => `<rect x="${x}" y="74" width="18" height="86" fill="#e5e7eb"/><rect x="${x + 4}" y="74" width="3" height="86" fill="#9ca3af"/>`)
        .join(
          "",
        )}<rect x="44" y="158" width="232" height="12" fill="url(#gold)"/><path d="M166 70L142 118H160L148 160L184 104H164L178 70Z" fill="#fde047" stroke="#fff" stroke-width="2"/>`;
    case "football":
      return `${[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `<rect x="${i * 40}" y="0" width="20" height="180" fill="#fff" fill-opacity=".05"/>`).join("")}<path d="M20 150H300M160 150V30" stroke="#fff" stroke-opacity=".35" stroke-width="3"/><circle cx="160" cy="150" r="40" stroke="#fff" stroke-opacity=".35" stroke-width="3" fill="none"/><circle cx="160" cy="88" r="46" fill="#fff" stroke="#111" stroke-width="3"/><path d="M160 70L177 82L171 102H149L143 82Z" fill="#111"/><path d="M160 42V70M177 82L203 74M171 102L186 124M149 102L134 124M143 82L117 74" stroke="#111" stroke-width="3"/><rect x="236" y="16" width="64" height="24" rx="6" fill="#dc2626"/><text x="268" y="34" font-family="DejaVu Sans, sans-serif" font-weight="700" font-size="15" fill="#fff" text-anchor="middle">LIVE</text>`;
    case "roulette": {
      const ring = Array.from({ length: 18 }, (_, i) => {
        const a = (i / 18) * Math.PI * 2;
        const b = ((i + 1) / 18) * Math.PI * 2;
        const p = (r: number, t: number) => `${(160 + r * Math.cos(t)).toFixed(1)} ${(96 + r * Math.sin(t)).toFixed(1)}`;
        return `<path d="M${p(40, a)}L${p(70, a)}A70 70 0 0 1 ${p(70, b)}L${p(40, b)}A40 40 0 0 0 ${p(40, a)}Z" fill="${i === 0 ? "#16a34a" : i % 2 ? "#dc2626" : "#111827"}"/>`;
      }).join("");
      return `${rays(160, 96, 16, 0.06)}<circle cx="160" cy="96" r="82" fill="url(#gold)"/>${ring}<circle cx="160" cy="96" r="40" fill="#7c2d12"/><circle cx="160" cy="96" r="14" fill="url(#gold)"/><circle cx="206" cy="48" r="7" fill="#fff"/>`;
    }
    case "dice":
      return `${rays(160, 96, 14, 0.07)}<ellipse cx="160" cy="162" rx="130" ry="18" fill="#000" fill-opacity=".3"/>${die(58, 70, 70, -12, 5)}${die(132, 40, 70, 8, 6)}${die(198, 82, 66, 16, 1)}`;
    case "live":
      return `<ellipse cx="160" cy="176" rx="200" ry="70" fill="#14532d"/><ellipse cx="160" cy="176" rx="186" ry="60" fill="#166534" stroke="#fbbf24" stroke-opacity=".6" stroke-width="3"/>${card(70, 60, -10, "8", true)}${card(178, 60, 10, "9", false)}<rect x="14" y="14" width="76" height="28" rx="14" fill="#dc2626"/><circle cx="32" cy="28" r="6" fill="#fff"/><text x="62" y="34" font-family="DejaVu Sans, sans-serif" font-weight="700" font-size="16" fill="#fff" text-anchor="middle">LIVE</text>`;
    case "chicken":
      return `${rays(160, 92, 18, 0.1)}<g transform="translate(112 96)"><path d="M-60 10C-80-20-70-50-50-60C-56-36-46-20-30-14Z" fill="#15803d"/><path d="M-64 0C-90-10-92-40-80-56C-78-30-66-16-44-8Z" fill="#1e3a8a"/><ellipse cx="0" cy="14" rx="44" ry="36" fill="#b45309"/><path d="M20-10C24-40 30-52 40-56C52-58 60-48 58-36C56-22 44-14 36 0Z" fill="#c2410c"/><path d="M38-62C40-74 48-74 48-64C52-74 60-72 58-60C64-64 66-56 60-52Z" fill="#dc2626"/><path d="M58-42L74-36L58-30Z" fill="#fbbf24"/><circle cx="48" cy="-44" r="4" fill="#111"/><path d="M50-28C54-20 52-14 46-14" fill="#dc2626"/><path d="M-6 48V66M10 48V66M-12 66H2M4 66H18" stroke="#fbbf24" stroke-width="5" stroke-linecap="round"/></g><path d="M230 70L246 92L270 80L256 104L280 118L252 118L256 144L236 124L216 142L220 116L196 110L220 100L210 78Z" fill="#fde047"/><text x="238" y="116" font-family="DejaVu Sans, sans-serif" font-weight="700" font-size="22" fill="#b91c1c" text-anchor="middle">VS</text>`;
  }
}

/** The drawing of a game's picture (320x240), or null for a game with no scene of its own. */
export function gameDrawing(game: { code: string; name: string }): string | null {
  const art = ART[game.code];
  if (!art) return null;
  const title = escapeXml(game.name);
  const size = title.length > 14 ? 26 : 32;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240" viewBox="0 0 320 240"><defs>${GOLD}<radialGradient id="bg" cx=".5" cy=".4" r=".75"><stop offset="0" stop-color="${art.bg[0]}"/><stop offset="1" stop-color="${art.bg[1]}"/></radialGradient><linearGradient id="foot" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".75"/></linearGradient></defs><rect width="320" height="240" fill="url(#bg)"/>${sceneOf(art)}<rect y="160" width="320" height="80" fill="url(#foot)"/><text x="160" y="${size > 28 ? 218 : 214}" font-family="URW Bookman, DejaVu Serif, serif" font-weight="700" font-size="${size}" fill="url(#gold)" stroke="#3b1702" stroke-width="3" paint-order="stroke" text-anchor="middle">${title}</text></svg>`;
}
