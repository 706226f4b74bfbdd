// An HTTP API on loopback in Express's development mode: an exception in a route becomes a 500
// whose body is Express's own error page, with the stack trace.
import express from 'express';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const app = express();
app.set('env', 'development');
const dataDir = process.env.API_DATA_DIR;
app.get('/reports/:id', (req, res) => {
  res.json(JSON.parse(readFileSync(path.join(dataDir, `${req.params.id}.json`), 'utf8')));
});
app.get('/users/:id', (req, res) => {
  const users = JSON.parse(readFileSync(path.join(dataDir, 'users.json'), 'utf8'));
  res.json({ name: users[req.params.id].name });
});
app.get('/health', (req, res) => res.json({ status: 'ok', uptime: 1 }));
const listener = app.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${listener.address().port}`));
