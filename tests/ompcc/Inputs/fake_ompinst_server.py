#!/usr/bin/env python3
"""A broken ompinst server for tests/ompcc/server.test: listens on <socket> (reached through its
directory's descriptor, as ompcc does for long paths), answers one request the way MODE says,
then exits; it exits after 60 seconds without a request too, so that a failed test leaves no
process behind.

    fake_ompinst_server.py <socket> <ready-file> close|version|silent|nostatus

close      accepts the request and closes the connection without an answer
version    answers with another protocol version
silent     accepts and never answers (ompcc's time-out); ends when ompcc hangs up
nostatus   says it started (with its own pid), then closes without an exit status

The ready file is written once the socket listens.
"""
import os
import socket
import struct
import sys

MAGIC = 0x504D4F50
VERSION = 1
IDLE_SECONDS = 60


def receive(conn, size):
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise OSError("the request ended early")
        data += chunk
    return data


def main():
    path, ready, mode = sys.argv[1:4]
    directory = os.open(os.path.dirname(path), os.O_PATH | os.O_DIRECTORY)
    name = "/proc/self/fd/%d/%s" % (directory, os.path.basename(path))
    if os.path.lexists(path):
        os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(name)
    server.listen(8)
    server.settimeout(IDLE_SECONDS)
    with open(ready, "w") as out:
        out.write("%d\n" % os.getpid())
    try:
        conn, _ = server.accept()
    except socket.timeout:
        os.unlink(path)
        return
    conn.settimeout(IDLE_SECONDS)
    try:
        # The whole request: its header (magic, version, payload size), then the payload.
        header = receive(conn, 12)
        receive(conn, struct.unpack("=III", header)[2])
        if mode == "version":
            conn.sendall(struct.pack("=IIi", MAGIC, VERSION + 98, os.getpid()))
        elif mode == "silent":
            # Until ompcc gives up and hangs up.
            while conn.recv(4096):
                pass
        elif mode == "nostatus":
            conn.sendall(struct.pack("=IIi", MAGIC, VERSION, os.getpid()))
    except (OSError, socket.timeout):
        pass
    conn.close()
    server.close()
    os.unlink(path)


if __name__ == "__main__":
    main()
