// The floor: the least any client can do to load every pod — fetch each page
// (limit=500) of /api/v1/pods over one keep-alive connection and JSON.parse
// it, nothing else. Run as its own process (`node raw-list.js URL`); prints
// the pod count. The harness times it from spawn to exit, like wlx.
import http from 'node:http';

const base = process.argv[2];
if (!base) {
  process.stderr.write('usage: raw-list.js http://127.0.0.1:PORT\n');
  process.exit(2);
}
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function getPage(path: string): Promise<{ items: unknown[]; metadata: { continue?: string } }> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, base), { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode} for ${path}`));
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (err) {
            reject(err);
          }
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

let count = 0;
let cont: string | undefined;
do {
  const page = await getPage(`/api/v1/pods?limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`);
  count += page.items.length;
  cont = page.metadata.continue || undefined;
} while (cont);
agent.destroy();
const cpu = process.cpuUsage();
process.stdout.write(`${count} ${(cpu.user + cpu.system) / 1e6}\n`);
