/** The value of one series of a Prometheus scrape, found by its name and exact labels; undefined when absent. */
export function valueOf(scrape: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of scrape.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2] ? match[2].split(/,(?=[a-z_]+=")/) : [];
    if (present.length === wanted.length && wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return undefined;
}
