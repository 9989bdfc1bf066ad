// Test child: a one-datagram UDP echo (`serve PORT`) and its client (`ask HOST PORT`), to show two namespaces
// are routed to each other. JSON lines on stdout; the client gives up after a few tries.
import { createSocket } from 'node:dgram';

const [mode, a = '', b = ''] = process.argv.slice(2);
const say = (e: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify(e)}\n`);
};
const socket = createSocket('udp4');
socket.on('error', (e) => {
  say({ ev: 'done', ok: false, error: e.message });
  socket.close();
});
if (mode === 'serve') {
  socket.on('message', (m, from) => socket.send(m, from.port, from.address));
  socket.bind(Number(a), () => say({ ev: 'ready' }));
} else {
  let tries = 0;
  const timer = setInterval(() => {
    if (++tries > 10) {
      clearInterval(timer);
      say({ ev: 'done', ok: false });
      socket.close();
      return;
    }
    socket.send('ping', Number(b), a);
  }, 300);
  socket.on('message', () => {
    clearInterval(timer);
    say({ ev: 'done', ok: true });
    socket.close();
  });
  socket.send('ping', Number(b), a);
}
