// Participant colours: distinct, readable on a light board. Pure.

const PALETTE = [
  0xe03131, 0x1971c2, 0x2f9e44, 0xf08c00, 0x9c36b5, 0x0c8599, 0xe64980, 0x5c940d, 0x6741d9,
  0xd9480f, 0x1098ad, 0x862e9c,
];

/** The i-th participant's colour: the palette first, then hues spread by the golden angle. */
export function participantColor(i: number): number {
  const fixed = PALETTE[i];
  if (fixed !== undefined) return fixed;
  const hue = (i * 137.508) % 360;
  return hslToRgb(hue, 0.65, 0.45);
}

function hslToRgb(h: number, s: number, l: number): number {
  const k = (n: number): number => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number): number => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  const to8 = (x: number): number => Math.round(x * 255);
  return (to8(f(0)) << 16) | (to8(f(8)) << 8) | to8(f(4));
}
