// Reads a file the caller names, relative to the app's data directory; an uncaught error prints its stack.
import { readFileSync } from 'node:fs';
import path from 'node:path';
function loadConfig(name) {
  return JSON.parse(readFileSync(path.join(process.env.APP_DATA_DIR, name), 'utf8'));
}
console.log(loadConfig(process.argv[2]));
