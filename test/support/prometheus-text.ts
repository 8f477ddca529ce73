/** The samples of a Prometheus text exposition: `name{labels}` → value. */
export function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*(?:\{.*\})?) (\S+)$/.exec(line);
    if (match) found.set(match[1], Number(match[2]));
  }
  return found;
}

/** The value of the sample of `name` whose labels include `labels`, or undefined. */
export function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const [series, value] of samples(text)) {
    const [metric, rest = ''] = series.split('{');
    if (metric !== name) continue;
    const present = rest.replace(/\}$/, '').split(',');
    if (wanted.every((pair) => present.includes(pair))) return value;
  }
  return undefined;
}
