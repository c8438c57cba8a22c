// The map with every segment's name left out (Mozilla's source-map library).
import { readFileSync, writeFileSync } from 'node:fs';
import { SourceMapConsumer, SourceMapGenerator } from 'source-map';
const [input, output] = process.argv.slice(2);
const c = await new SourceMapConsumer(JSON.parse(readFileSync(input)));
const g = new SourceMapGenerator({ file: 'shapes.min.js' });
c.eachMapping((m) => {
  if (m.source === null) return;
  g.addMapping({
    generated: { line: m.generatedLine, column: m.generatedColumn },
    original: { line: m.originalLine, column: m.originalColumn },
    source: m.source,
  });
});
c.destroy();
writeFileSync(output, g.toString());
