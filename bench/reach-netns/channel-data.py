# Watches a TURN server's traffic on one interface (an AF_PACKET socket, both directions) and measures what the
# relay adds to each datagram it carries; knows nothing of what the datagrams carry inside.
#
# ChannelData (first two bits 01): a 4-byte header (channel number, length) and, over UDP, optional padding to a
# multiple of 4 (RFC 8656, ChannelData message): per datagram the overhead is its UDP payload minus the length field.
# Send and Data indications (STUN methods 0x006/0x007, before a channel is bound) carry their data in a DATA
# attribute behind a 20-byte STUN header and XOR-PEER-ADDRESS: counted, and their overhead taken the same way.
#
# Usage: channel-data.py DEV TURN_PORT MAX_SECONDS. Prints {"ev":"ready"}; on SIGUSR1 one {"ev":"relay"} line with
# the counts since the last one (then zeroes them); exits on SIGTERM, when its parent goes, or after MAX_SECONDS.
import json
import os
import select
import signal
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
ETH_P_IP = 0x0800
SEND_INDICATION = 0x0016
DATA_INDICATION = 0x0017
DATA_ATTRIBUTE = 0x0013


def fresh():
    return {"channelData": 0, "overheadBytes": 0, "overheads": {}, "indications": 0, "indicationOverheadBytes": 0}


def data_attribute_length(payload):
    """The DATA attribute's value length in a STUN message, or None."""
    at = 20
    while at + 4 <= len(payload):
        kind, length = struct.unpack_from("!HH", payload, at)
        if kind == DATA_ATTRIBUTE:
            return length
        at += 4 + ((length + 3) & ~3)
    return None


def account(stats, payload):
    if len(payload) < 4:
        return
    first = payload[0] >> 6
    if first == 1:
        length = struct.unpack_from("!H", payload, 2)[0]
        overhead = len(payload) - length
        stats["channelData"] += 1
        stats["overheadBytes"] += overhead
        key = str(overhead)
        stats["overheads"][key] = stats["overheads"].get(key, 0) + 1
    elif first == 0 and len(payload) >= 20:
        kind = struct.unpack_from("!H", payload, 0)[0]
        if kind in (SEND_INDICATION, DATA_INDICATION):
            length = data_attribute_length(payload)
            if length is not None:
                stats["indications"] += 1
                stats["indicationOverheadBytes"] += len(payload) - length


def main():
    dev, port, max_seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    sock.bind((dev, 0))
    sock.setblocking(False)
    flags = {"report": False, "stop": False}
    signal.signal(signal.SIGUSR1, lambda *_: flags.__setitem__("report", True))
    signal.signal(signal.SIGTERM, lambda *_: flags.__setitem__("stop", True))
    signal.signal(signal.SIGINT, lambda *_: flags.__setitem__("stop", True))
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    parent = os.getppid()
    deadline = time.monotonic() + max_seconds
    stats = fresh()
    sys.stdout.write('{"ev":"ready"}\n')
    sys.stdout.flush()
    while not flags["stop"] and time.monotonic() < deadline and os.getppid() == parent:
        if flags["report"]:
            flags["report"] = False
            sys.stdout.write(json.dumps({"ev": "relay", **stats}) + "\n")
            sys.stdout.flush()
            stats = fresh()
        try:
            ready, _, _ = select.select([sock, wake_r], [], [], 0.5)
        except InterruptedError:
            continue
        if wake_r in ready:
            try:
                os.read(wake_r, 512)
            except BlockingIOError:
                pass
        if sock not in ready:
            continue
        for _ in range(256):
            try:
                frame = sock.recv(65536)
            except BlockingIOError:
                break
            if len(frame) < 14 + 20 + 8 or struct.unpack_from("!H", frame, 12)[0] != ETH_P_IP:
                continue
            ip = frame[14:]
            if ip[9] != socket.IPPROTO_UDP:
                continue
            ihl = (ip[0] & 0x0F) * 4
            sport, dport, udp_length = struct.unpack_from("!HHH", ip, ihl)
            if port not in (sport, dport):
                continue
            account(stats, ip[ihl + 8 : ihl + udp_length])


if __name__ == "__main__":
    main()
