import { readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';
const wasi = new WASI({ version: 'preview1', args: [], env: {} });
const bytes = readFileSync(process.argv[2]);
const { instance } = await WebAssembly.instantiate(bytes, wasi.getImportObject());
wasi.start(instance);
