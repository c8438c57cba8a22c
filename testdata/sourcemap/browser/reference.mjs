// Reference: every bundle frame of the Chrome trace and the Firefox
// profile mapped with Mozilla's source-map library (npm source-map 0.7).
//   node reference.mjs chrome TRACE MAP | firefox PROFILE MAP
// Chrome's callFrames count lines and columns from 0; Firefox's frame
// locations ("name (url:line:column)[source id]") from 1 (the same function of the
// same file: Chrome's r at column 16, Firefox's at 1:17).  Output as
// dist/bundle.reference.txt: `name L:C -> originalName source:line:column`,
// L:C 1-based, `null` where the library finds no original.
import { readFileSync } from 'node:fs';
import { SourceMapConsumer } from 'source-map';
const [kind, file, mapFile] = process.argv.slice(2);
const c = await new SourceMapConsumer(JSON.parse(readFileSync(mapFile)));
const seen = new Set();
function show(name, line, column) {
  const key = `${name} ${line}:${column}`;
  if (seen.has(key)) return;
  seen.add(key);
  const o = c.originalPositionFor({ line, column: column - 1 });
  console.log(`${key} -> ${o.name} ${o.source}:${o.line}:${o.column === null ? '' : o.column + 1}`);
}
const doc = JSON.parse(readFileSync(file));
if (kind === 'chrome') {
  for (const e of doc.traceEvents)
    for (const n of e.name === 'ProfileChunk' ? e.args.data.cpuProfile?.nodes ?? [] : []) {
      const f = n.callFrame;
      if ((f.url ?? '').includes('bundle') && f.lineNumber !== undefined)
        show(f.functionName || '(anonymous)', f.lineNumber + 1, f.columnNumber + 1);
    }
} else {
  for (const p of doc.processes)
    for (const t of p.threads) {
      const loc = t.frameTable.schema.location;
      for (const row of t.frameTable.data) {
        const m = /^(?:(.*) \()?(file:[^ ]*bundle\.min\.js):(\d+):(\d+)\)?(?:\[\d+\])?$/.exec(t.stringTable[row[loc]]);
        if (m) show(m[1] || '(anonymous)', Number(m[3]), Number(m[4]));
      }
    }
}
c.destroy();
