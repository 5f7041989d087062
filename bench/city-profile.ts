// The server's CPU profile of a city run (CITY_SERVER_ARGS='--cpu-prof --cpu-prof-dir=DIR'),
// summed up: where its CPU time went, by package and by function (self time).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] };
type Profile = { nodes: ProfileNode[]; startTime: number; endTime: number };

/** Where a frame's code lives: a package, the server's bundle, Node itself, or V8's own work. */
function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1] ?? url;
  if (url.includes('dist/main.js') || url.includes('dist/chunks/')) return 'server (dist)';
  if (url.startsWith('node:')) return 'node';
  return url;
}

/** The profiles written in `dir` since `since` (ms), each summed up in a few lines. */
export function profileSummary(dir: string, since: number, top = 12): string[] {
  const lines: string[] = [];
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile')).map((name) => join(dir, name)).filter((file) => statSync(file).mtimeMs >= since);
  } catch {
    return [`  no profile in ${dir}`];
  }
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const hits = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
    const msPerHit = hits > 0 ? (profile.endTime - profile.startTime) / 1000 / hits : 0;
    // Native code (a socket's writev, say) is counted under the nearest caller outside Node's own
    // modules: the package or the server code that asked for it.
    const parent = new Map<number, ProfileNode>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
    const callerPlace = (node: ProfileNode): string => {
      for (let up = parent.get(node.id); up; up = parent.get(up.id)) {
        const place = up.callFrame.url ? placeOf(up.callFrame.url, up.callFrame.functionName) : '';
        if (place && place !== 'node') return place;
      }
      return 'node';
    };
    const byPlace = new Map<string, number>();
    const byFunction = new Map<string, number>();
    for (const node of profile.nodes) {
      const count = node.hitCount ?? 0;
      if (count === 0) continue;
      const { functionName, url, lineNumber } = node.callFrame;
      const own = placeOf(url, functionName);
      const place = own === '(native)' ? `(native, called from ${callerPlace(node)})` : own;
      byPlace.set(place, (byPlace.get(place) ?? 0) + count);
      const name = `${functionName || '(anonymous)'} ${place}${url && !url.includes('node_modules') ? `:${String(lineNumber + 1)}` : ''}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + count);
    }
    const share = (count: number) => `${((count * 100) / hits).toFixed(1).padStart(5)}%  ${String(Math.round(count * msPerHit)).padStart(6)} ms`;
    lines.push(`  profile ${file}: ${String(Math.round((profile.endTime - profile.startTime) / 1e6))} s`);
    lines.push('    by place (self time):');
    for (const [place, count] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`      ${share(count)}  ${place}`);
    lines.push('    by function (self time):');
    for (const [name, count] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`      ${share(count)}  ${name}`);
  }
  return lines;
}
