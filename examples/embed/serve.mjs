// The embedding example's shop: serves index.html on its own origin with what a shop's
// back end fills in (README.md, "Embedding the configurator in a shop"):
//   - an intent token, asked for with the shop user's own credential (POST /v1/login,
//     then POST /v1/intents {company_id}): the page never sees the password;
//   - the element's content-hashed file and its integrity, from /app/embed.json.
//
//   API=http://localhost:3000 EMAIL=… PASSWORD=… COMPANY=1 MODEL=1 LANGUAGE=de \
//     node examples/embed/serve.mjs            # then open http://localhost:8080/
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const env = process.env;
const api = (env.API ?? 'http://localhost:3000').replace(/\/$/, '');
const port = Number(env.PORT ?? 8080);
const page = readFileSync(new URL('./index.html', import.meta.url), 'utf8');

async function call(path, body, token) {
  const res = await fetch(`${api}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${json.message ?? ''}`);
  return json.data ?? json;
}

/** A fresh intent token per page view (an hour by default), and the element's hashed name. */
async function embedSettings() {
  const login = await call('/v1/login', { email: env.EMAIL, password: env.PASSWORD });
  const intent = await call(
    '/v1/intents',
    { company_id: Number(env.COMPANY ?? 1) },
    login.access_token,
  );
  const element = await call('/app/embed.json');
  return {
    api,
    model: env.MODEL ?? '1',
    language: env.LANGUAGE ?? '',
    token: intent.token,
    script: element.script,
    integrity: element.integrity,
  };
}

createServer(async (req, res) => {
  if (new URL(req.url ?? '/', 'http://x').pathname !== '/') {
    res.writeHead(404).end();
    return;
  }
  try {
    const settings = JSON.stringify(await embedSettings()).replace(/</g, '\\u003c');
    const html = page.replace('<script>', `<script>window.EMBED = ${settings};\n`);
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(html);
  } catch (error) {
    res.writeHead(502, { 'Content-Type': 'text/plain' }).end(String(error));
  }
}).listen(port, () => {
  process.stdout.write(
    `shop on http://localhost:${port}/ (the service needs CORS_ORIGINS=http://localhost:${port})\n`,
  );
});
