// Draws grouped bar charts as SVG and renders them to small PNGs with headless Chromium (playwright-core);
// knows nothing of what the numbers are.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../test/e2e/harness/chromium';

export interface BarChart {
  readonly file: string;
  readonly title: string;
  readonly yLabel: string;
  readonly groups: readonly string[];
  readonly series: readonly { name: string; values: readonly (number | null)[] }[];
  readonly log?: boolean;
  /** Horizontal reference lines (targets). */
  readonly refs?: readonly { value: number; label: string }[];
}

const W = 760;
const H = 380;
const M = { left: 64, right: 16, top: 40, bottom: 64 };
const COLORS = ['#2563eb', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6'];

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const fmt = (v: number): string =>
  Number.isInteger(v) || v >= 100
    ? v.toFixed(0)
    : v >= 10
      ? v.toFixed(1)
      : String(Math.round(v * 100) / 100);

function scale(c: BarChart): { y: (v: number) => number; ticks: number[] } {
  const vals = c.series.flatMap((s) => s.values).filter((v): v is number => v !== null && v > 0);
  const refs = (c.refs ?? []).map((r) => r.value);
  const max = Math.max(1, ...vals, ...refs);
  const plotH = H - M.top - M.bottom;
  if (c.log === true) {
    const lo = Math.floor(Math.log10(Math.max(0.1, Math.min(...vals, ...refs))));
    const hi = Math.ceil(Math.log10(max));
    const y = (v: number): number =>
      M.top + plotH - ((Math.log10(Math.max(v, 10 ** lo)) - lo) / (hi - lo || 1)) * plotH;
    return { y, ticks: Array.from({ length: hi - lo + 1 }, (_, i) => 10 ** (lo + i)) };
  }
  const step = 10 ** Math.floor(Math.log10(max / 4));
  const nice = [1, 2, 5, 10].map((k) => k * step).find((s) => max / s <= 6) ?? step * 10;
  const top = Math.ceil(max / nice) * nice;
  const y = (v: number): number => M.top + plotH - (Math.max(0, v) / top) * plotH;
  return { y, ticks: Array.from({ length: Math.round(top / nice) + 1 }, (_, i) => i * nice) };
}

export function chartSvg(c: BarChart): string {
  const { y, ticks } = scale(c);
  const plotW = W - M.left - M.right;
  const groupW = plotW / c.groups.length;
  const barW = Math.min(36, (groupW * 0.8) / c.series.length);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="DejaVu Sans, sans-serif">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${W / 2}" y="22" font-size="15" text-anchor="middle" font-weight="bold">${esc(c.title)}</text>`,
    `<text x="14" y="${H / 2}" font-size="11" text-anchor="middle" transform="rotate(-90 14 ${H / 2})">${esc(c.yLabel)}</text>`,
  ];
  for (const t of ticks) {
    out.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${y(t)}" y2="${y(t)}" stroke="#e5e7eb"/>`,
      `<text x="${M.left - 6}" y="${y(t) + 4}" font-size="10" text-anchor="end">${fmt(t)}</text>`,
    );
  }
  c.groups.forEach((g, gi) => {
    const x0 = M.left + gi * groupW + (groupW - barW * c.series.length) / 2;
    c.series.forEach((s, si) => {
      const v = s.values[gi];
      const x = x0 + si * barW;
      if (v === null || v === undefined || !Number.isFinite(v)) {
        out.push(
          `<text x="${x + barW / 2}" y="${y(0) - 4}" font-size="9" text-anchor="middle">n/a</text>`,
        );
        return;
      }
      const top = y(v);
      const color = COLORS[si % COLORS.length] ?? '#000';
      out.push(
        `<rect x="${x + 1}" y="${top}" width="${barW - 2}" height="${Math.max(0, y(0) - top)}" fill="${color}"/>`,
        `<text x="${x + barW / 2}" y="${top - 3}" font-size="9" text-anchor="middle">${fmt(v)}</text>`,
      );
    });
    out.push(
      `<text x="${M.left + gi * groupW + groupW / 2}" y="${H - M.bottom + 16}" font-size="11" text-anchor="middle">${esc(g)}</text>`,
    );
  });
  for (const r of c.refs ?? []) {
    out.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${y(r.value)}" y2="${y(r.value)}" stroke="#111" stroke-dasharray="5 4"/>`,
      `<text x="${W - M.right - 4}" y="${y(r.value) - 4}" font-size="10" text-anchor="end">${esc(r.label)}</text>`,
    );
  }
  c.series.forEach((s, si) => {
    const x = M.left + si * 150;
    out.push(
      `<rect x="${x}" y="${H - 26}" width="12" height="12" fill="${COLORS[si % COLORS.length] ?? '#000'}"/>`,
      `<text x="${x + 18}" y="${H - 16}" font-size="11">${esc(s.name)}</text>`,
    );
  });
  out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${y(0)}" y2="${y(0)}" stroke="#111"/>`);
  out.push('</svg>');
  return out.join('\n');
}

/** Renders each chart to `dir/<file>.png`; returns the paths written. */
export async function renderCharts(dir: string, charts: readonly BarChart[]): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'gb-plot-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: findChromium(),
    headless: true,
    viewport: { width: W, height: H },
    args: CHROMIUM_ARGS,
  });
  const written: string[] = [];
  try {
    const page = await browser.newPage();
    for (const c of charts) {
      await page.setContent(`<html><body style="margin:0">${chartSvg(c)}</body></html>`);
      const path = join(dir, `${c.file}.png`);
      await page.screenshot({ path, clip: { x: 0, y: 0, width: W, height: H } });
      written.push(path);
    }
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return written;
}
