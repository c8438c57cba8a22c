export function makeItems(n) {
  const items = [];
  for (let i = 0; i < n; i++) {
    items.push({ id: i, key: (i * 2654435761) % 1000003, name: 'item' + i });
  }
  return items;
}

export function checksum(items) {
  let sum = 0;
  for (const it of items) {
    sum = (sum * 31 + it.key) | 0;
  }
  return sum;
}
