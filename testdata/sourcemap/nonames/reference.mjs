// Reference: every frame of a profile in dist/ mapped with Mozilla's source-map library.
import { readFileSync } from 'node:fs';
import { SourceMapConsumer } from 'source-map';
const prof = JSON.parse(readFileSync(process.argv[2]));
const map = JSON.parse(readFileSync(process.argv[3]));
const c = await new SourceMapConsumer(map);
const seen = new Map();
for (const n of prof.nodes) {
  const f = n.callFrame;
  if (!f.url.includes('shapes')) continue;
  const key = `${f.functionName}|${f.lineNumber}|${f.columnNumber}`;
  if (seen.has(key)) continue;
  const o = c.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber });
  seen.set(key, o);
  console.log(`${f.functionName || '(anonymous)'} ${f.lineNumber + 1}:${f.columnNumber + 1} -> ${o.name} ${o.source}:${o.line}:${o.column === null ? '' : o.column + 1}`);
}
c.destroy();
