/**
 * WCAG 2 contrast ratio of a text colour on a background (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio).
 * Colours are #rrggbb or rgba(r,g,b,a); a translucent text colour is first laid over the background, as a browser
 * paints it.
 */
type Rgba = [number, number, number, number];

function parse(colour: string): Rgba {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour.trim());
  if (hex) {
    const h = hex[1]!.length === 3 ? [...hex[1]!].map((c) => c + c).join('') : hex[1]!;
    return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)).concat(1) as Rgba;
  }
  const rgb = /^rgba?\(([^)]+)\)$/i.exec(colour.trim());
  if (!rgb) throw new Error(`not a colour: ${colour}`);
  const [r = 0, g = 0, b = 0, a = 1] = rgb[1]!.split(',').map(Number);
  return [r, g, b, a];
}

function luminance([r, g, b]: Rgba): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrastRatio(text: string, background: string): number {
  const bg = parse(background);
  const fg = parse(text);
  const a = fg[3];
  const over: Rgba = [0, 1, 2].map((i) => fg[i]! * a + bg[i]! * (1 - a)).concat(1) as Rgba;
  const [hi, lo] = [luminance(over), luminance(bg)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
