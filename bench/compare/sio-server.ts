// Baseline (c)'s server: a relay in the shape of Excalidraw's room server (excalidraw-room): rooms, opaque
// encrypted payloads re-broadcast to the rest of the room, volatile ones with socket.volatile. Knows nothing
// of the workload.
import { createServer } from 'node:http';
import { Server } from 'socket.io';
import { emit, exitOnSignal } from './contract';

const [bind = '0.0.0.0', port = '0'] = process.argv.slice(2);
const http = createServer();
const io = new Server(http, { transports: ['websocket', 'polling'], maxHttpBufferSize: 20e6 });

io.on('connection', (socket) => {
  io.to(socket.id).emit('init-room');
  socket.on('join-room', async (roomID: string) => {
    await socket.join(roomID);
    const sockets = await io.in(roomID).fetchSockets();
    if (sockets.length <= 1) io.to(socket.id).emit('first-in-room');
    else socket.broadcast.to(roomID).emit('new-user', socket.id);
    io.in(roomID).emit(
      'room-user-change',
      sockets.map((s) => s.id),
    );
  });
  socket.on('server-broadcast', (roomID: string, data: Buffer, iv: Buffer) => {
    socket.broadcast.to(roomID).emit('client-broadcast', data, iv);
  });
  socket.on('server-volatile-broadcast', (roomID: string, data: Buffer, iv: Buffer) => {
    socket.volatile.broadcast.to(roomID).emit('client-broadcast', data, iv);
  });
});
http.listen(Number(port), bind, () => {
  const a = http.address();
  emit({ ev: 'ready', port: typeof a === 'object' && a !== null ? a.port : 0 });
});
exitOnSignal(() => {
  void io.close();
});
