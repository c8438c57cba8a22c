import { makeItems, checksum } from './util.js';

function sortByKey(items) {
  return items.slice().sort((a, b) => a.key - b.key);
}

function render(items) {
  return items.map((it) => `<li>${it.name}:${it.key}</li>`).join('');
}

function busyLoop(ms) {
  const end = Date.now() + ms;
  let x = 0;
  while (Date.now() < end) {
    x += Math.sqrt(x + 1);
  }
  return x;
}

export function run() {
  let total = 0;
  for (let round = 0; round < 4; round++) {
    const items = makeItems(200000);
    const sorted = sortByKey(items);
    total += render(sorted).length;
    total += checksum(sorted);
    total += busyLoop(100);
  }
  return total;
}

console.log(run());
