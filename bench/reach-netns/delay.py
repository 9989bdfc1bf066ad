# A userspace delay line on one TUN device, for a namespace that routes through it (the lab's core router); knows
# nothing of addresses or of what the packets carry.
#
# `tc netem` is not available on this machine (NETLAB.md), so delay comes from userspace, as in bench/router:
# the namespace's policy routing sends every forwarded packet into the TUN device; this process holds each one
# for DELAY_MS and writes it back, and the kernel, seeing it arrive on the TUN device, routes it on by the main
# table. Fixed delay, no loss, no reordering: packets leave in the order they came.
#
# Usage: delay.py DEV DELAY_MS MAX_SECONDS. Prints {"ev":"ready"} once the device exists, and on exit (SIGTERM,
# its parent gone, or MAX_SECONDS) one {"ev":"stats"} line with what it carried.
import collections
import errno
import fcntl
import json
import os
import select
import signal
import struct
import sys
import time

TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000


def main():
    dev, delay_ms, max_seconds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", dev.encode(), IFF_TUN | IFF_NO_PI))
    stop = {"now": False}
    signal.signal(signal.SIGTERM, lambda *_: stop.__setitem__("now", True))
    signal.signal(signal.SIGINT, lambda *_: stop.__setitem__("now", True))
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    parent = os.getppid()
    deadline = time.monotonic() + max_seconds
    # A fixed delay keeps arrival order, so a FIFO of (due seconds, packet) is enough.
    held = collections.deque()
    stats = {"packets": 0, "bytes": 0, "writeErrors": 0, "maxHeld": 0}
    sys.stdout.write('{"ev":"ready"}\n')
    sys.stdout.flush()
    while not stop["now"] and time.monotonic() < deadline and os.getppid() == parent:
        now = time.monotonic()
        while held and held[0][0] <= now:
            _, pkt = held.popleft()
            try:
                os.write(fd, pkt)
            except OSError:
                stats["writeErrors"] += 1
        timeout = 0.5 if not held else max(0.0, held[0][0] - time.monotonic())
        try:
            ready, _, _ = select.select([fd, wake_r], [], [], min(timeout, 0.5))
        except InterruptedError:
            continue
        if wake_r in ready:
            try:
                os.read(wake_r, 512)
            except BlockingIOError:
                pass
        if fd not in ready:
            continue
        for _ in range(256):
            try:
                pkt = os.read(fd, 65536)
            except OSError as e:
                if e.errno in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EIO):
                    break
                raise
            held.append((time.monotonic() + delay_ms / 1000.0, pkt))
            stats["packets"] += 1
            stats["bytes"] += len(pkt)
        stats["maxHeld"] = max(stats["maxHeld"], len(held))
    sys.stdout.write(json.dumps({"ev": "stats", **stats}) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
