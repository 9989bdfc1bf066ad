// Baseline (b)'s server: y-websocket's own setupWSConnection behind a ws server, one shared document. Knows
// nothing of the workload.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { WebSocketServer } from 'ws';
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { emit, exitOnSignal } from './contract';

type Setup = (conn: WebSocket, req: IncomingMessage, o: { docName: string; gc: boolean }) => void;
const require = createRequire(import.meta.url);
const { setupWSConnection } = require('y-websocket/bin/utils') as { setupWSConnection: Setup };

const [bind = '0.0.0.0', port = '0'] = process.argv.slice(2);
const http = createServer((_req, res) => {
  res.writeHead(404).end();
});
const wss = new WebSocketServer({ server: http });
wss.on('connection', (conn, req) => {
  setupWSConnection(conn, req, { docName: 'bench', gc: true });
});
http.listen(Number(port), bind, () => {
  const a = http.address();
  emit({ ev: 'ready', port: typeof a === 'object' && a !== null ? a.port : 0 });
});
exitOnSignal(() => {
  wss.close();
  http.close();
});
