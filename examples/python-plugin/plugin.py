#!/usr/bin/env python3
"""A Pincer plugin in Python with only the standard library, speaking protocol v1.

Framing: one JSON-RPC 2.0 message per line (ndjson) on fd 3, or on stdin/stdout when
PINCER_TRANSPORT=stdio. See docs/protocol.md. Tools:
  py_echo       returns its arguments
  py_upper      reads a workspace file through the kernel (workspace/read) and upper-cases it
  py_count      counts to n, reporting $/progress
"""
import json
import os
import signal
import socket
import sys
import threading
import time

PROTOCOL_VERSIONS = [1]
PLUGIN_ID = os.environ.get("PINCER_PLUGIN_ID", "python-example")
COOKIE = "pincer-plugin-1c6f2b9e4a7d4f05"

TOOLS = [
    {"name": "py_echo", "description": "Returns its arguments as JSON text", "family": "python",
     "inputSchema": {"type": "object"}},
    {"name": "py_upper", "description": "Reads a workspace file and upper-cases it", "family": "python",
     "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
    {"name": "py_count", "description": "Counts to n with progress", "family": "python",
     "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}},
]

# Route print() to stderr: stdout may be the protocol channel (stdio transport).
log = sys.stderr


class Channel:
    """Reads and writes ndjson messages; keeps messages that arrive while we wait for a reply."""

    def __init__(self):
        if os.environ.get("PINCER_TRANSPORT") == "stdio":
            self.reader = sys.stdin.buffer
            self.out = sys.stdout.buffer
            self.write_bytes = lambda b: (self.out.write(b), self.out.flush())
        else:
            sock = socket.socket(fileno=3)
            self.reader = sock.makefile("rb")
            self.write_bytes = sock.sendall
        self.backlog = []
        self.next_id = 0

    def send(self, message):
        message["jsonrpc"] = "2.0"
        self.write_bytes((json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8"))

    def receive(self):
        if self.backlog:
            return self.backlog.pop(0)
        while True:
            line = self.reader.readline()
            if not line:
                return None  # the kernel closed the pipe: exit
            if line.strip():
                return json.loads(line)

    def request(self, method, params):
        """Plugin -> kernel request; answers to other ids wait in the backlog."""
        self.next_id += 1
        my_id = "py-%d" % self.next_id
        self.send({"id": my_id, "method": method, "params": params})
        while True:
            line = self.reader.readline()
            if not line:
                raise EOFError("kernel closed the pipe")
            msg = json.loads(line)
            if msg.get("id") == my_id and "method" not in msg:
                if "error" in msg:
                    raise RuntimeError(msg["error"].get("message", "workspace error"))
                return msg.get("result")
            self.backlog.append(msg)


def tool_result(text):
    return {"content": [{"type": "text", "text": text}]}


def call_tool(chan, params):
    name = params.get("name")
    args = params.get("arguments") or {}
    session = (params.get("context") or {}).get("sessionKey")
    if name == "py_echo":
        return tool_result(json.dumps(args, sort_keys=True))
    if name == "py_upper":
        read = chan.request("workspace/read", {"sessionKey": session, "path": args["path"]})
        return tool_result(read["content"].upper())
    if name == "py_count":
        token = params.get("progressToken")
        n = int(args.get("n", 3))
        for i in range(n):
            if token is not None:
                chan.send({"method": "$/progress", "params": {"token": token, "value": {"progress": i + 1, "total": n}}})
        return tool_result("counted to %d" % n)
    raise LookupError(name)


def handle(chan, msg):
    method, msg_id, params = msg.get("method"), msg.get("id"), msg.get("params") or {}
    if method is None:
        return True  # a stray response; nothing waits for it
    if msg_id is None:
        return True  # notifications ($/cancelRequest): our calls are instant, nothing to cancel
    if method == "handshake":
        common = [v for v in params.get("protocolVersions", []) if v in PROTOCOL_VERSIONS]
        if not common:
            chan.send({"id": msg_id, "error": {"code": -32002, "message":
                       "Plugin \"%s\" speaks protocol version(s) %s; this kernel speaks %s." %
                       (PLUGIN_ID, PROTOCOL_VERSIONS, params.get("protocolVersions"))}})
            return True
        chan.send({"id": msg_id, "result": {
            "protocolVersion": max(common),
            "plugin": {"id": PLUGIN_ID, "version": "0.1.0"},
            "capabilities": {"progress": True},
            "contributes": {"tools": TOOLS, "sandboxBackends": [], "skillSources": [], "hooks": []},
        }})
    elif method == "tool/invoke":
        try:
            chan.send({"id": msg_id, "result": call_tool(chan, params)})
        except LookupError as e:
            chan.send({"id": msg_id, "error": {"code": -32010, "message": "no tool named %s" % e, "data": {"tool": str(e)}}})
        except Exception as e:  # a failing tool is a ToolFailed error, never a crash
            chan.send({"id": msg_id, "error": {"code": -32009, "message": str(e), "data": {"tool": params.get("name")}}})
    elif method == "$/shutdown":
        chan.send({"id": msg_id, "result": None})
        return False
    else:
        chan.send({"id": msg_id, "error": {"code": -32601, "message": "method not found: %s" % method}})
    return True


def group_of(pid):
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def leave_for(kernel, parent):
    """How to leave: the kernel starts us in a group of our own and kills that group once it is
    done with us; when it died (SIGKILL) nobody will, so we kill our group, children included,
    ourselves. Decided at start, while the kernel lives: never kill a group we share with it."""
    own_group = os.getpgrp()
    kill_group = own_group != group_of(kernel or parent)

    def leave(code):
        if kill_group:
            os.killpg(own_group, signal.SIGKILL)
        os._exit(code)

    return leave


def watchdog(kernel, parent, leave):
    """Leave when the kernel is gone, even if the pipe stays open (a child may hold it)."""
    while True:
        time.sleep(0.5)
        gone = os.getppid() != parent
        if kernel and not gone:
            try:
                os.kill(kernel, 0)
            except ProcessLookupError:
                gone = True
            except PermissionError:
                pass
        if gone:
            leave(2)


def main():
    if os.environ.get("PINCER_PLUGIN_COOKIE") != COOKIE:
        print("This is a Pincer plugin; a Pincer kernel starts it. Add it to the kernel config:\n"
              '  plugins: [{ "id": "python-example", "command": ["python3", "%s"] }]' % os.path.abspath(__file__),
              file=log)
        sys.exit(1)
    parent = os.getppid()
    kernel = int(os.environ.get("PINCER_KERNEL_PID", "0") or 0)
    leave = leave_for(kernel, parent)
    threading.Thread(target=watchdog, args=(kernel, parent, leave), daemon=True).start()
    chan = Channel()
    while True:
        msg = chan.receive()
        if msg is None or not handle(chan, msg):
            leave(0)  # the pipe closed or we answered $/shutdown: the kernel is done with us


if __name__ == "__main__":
    main()
