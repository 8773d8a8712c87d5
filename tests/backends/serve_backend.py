#!/usr/bin/python3
"""A runtime speaking the persistent protocol of `sonnx certify --backend-cmd CMD --persistent`
(docs/backends.md, "Persistent protocol"), for the tests: it runs each model with `SONNX run` (the
reference interpreter, so its outputs pass) and can misbehave on chosen tests.

  serve_backend.py SONNX [--misbehave TEST=WHAT,...] [--chatty] [--handshake ok|none|v2]
                         [--starts FILE] --serve

WHAT, for the test whose directory is TEST (the model's parent directory):
  hang     never reply (sleeps)              segv     die of SIGSEGV while running it
  exit     exit with status 5 while running it, after a line on stderr
  garbage  reply with a line that is not JSON
  stale    reply with another request's id
  refuse   reply unsupported, with a reason  error    reply error, with a message
--chatty prints a log line on stdout before every reply and one on stderr (neither may disturb the
protocol). --handshake none never makes the handshake; v2 announces protocol version 2.
--starts FILE: every start appends the process id to FILE (the test counts restarts with it).
Python's standard library only: the model's input and output names are read from its protobuf here.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time


def varint(buf, pos):
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def fields(buf):
    """(field number, wire type, value) of a protobuf message; value is bytes for wire type 2."""
    pos = 0
    while pos < len(buf):
        key, pos = varint(buf, pos)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = varint(buf, pos)
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 2:
            n, pos = varint(buf, pos)
            value, pos = buf[pos:pos + n], pos + n
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise ValueError(f"wire type {wire}")
        yield field, wire, value


def name_of(message, field):
    return next((v.decode() for f, w, v in fields(message) if f == field and w == 2), "")


def graph_io(model_path):
    """Names of the graph inputs without an initializer, and of the graph outputs, in order."""
    with open(model_path, "rb") as f:
        model = f.read()
    graph = next(v for f, w, v in fields(model) if f == 7 and w == 2)
    inputs, outputs, initialized = [], [], set()
    for f, w, v in fields(graph):
        if w != 2:
            continue
        if f == 11:  # input: ValueInfoProto, name = 1
            inputs.append(name_of(v, 1))
        elif f == 12:  # output
            outputs.append(name_of(v, 1))
        elif f == 5:  # initializer: TensorProto, name = 8
            initialized.add(name_of(v, 8))
        elif f == 15:  # sparse_initializer: SparseTensorProto, values (a TensorProto) = 1
            values = next((x for g, y, x in fields(v) if g == 1 and y == 2), b"")
            initialized.add(name_of(values, 8))
    return [n for n in inputs if n not in initialized], outputs


def safe_file_name(name):  # as `sonnx run -o` names its files
    return "".join(c if c.isalnum() or c in "_-." else "_" for c in name)


def run_model(sonnx, request):
    """Runs the model with `sonnx run`; returns None on success, else the error text."""
    inputs, outputs = graph_io(request["model"])
    args = [sonnx, "run", request["model"]]
    for k, name in enumerate(inputs):
        args += ["-i", f"{name}={os.path.join(request['inputs'], f'input_{k}.pb')}"]
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(args + ["-o", tmp], capture_output=True, text=True)
        if proc.returncode != 0:
            return f"sonnx run exited {proc.returncode}: {proc.stderr.strip()}"
        for k, name in enumerate(outputs):
            os.replace(os.path.join(tmp, safe_file_name(name) + ".pb"), os.path.join(request["outputs"], f"output_{k}.pb"))
    return None


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[-1] != "--serve":
        sys.exit(__doc__.strip())
    sonnx, options = args[0], args[1:-1]
    misbehave, chatty, handshake, starts = {}, False, "ok", None
    while options:
        opt = options.pop(0)
        if opt == "--misbehave":
            misbehave = dict(item.split("=", 1) for item in options.pop(0).split(","))
        elif opt == "--chatty":
            chatty = True
        elif opt == "--handshake":
            handshake = options.pop(0)
        elif opt == "--starts":
            starts = options.pop(0)
        else:
            sys.exit(f"serve_backend: unknown option {opt}")
    if starts:
        with open(starts, "a") as f:
            f.write(f"{os.getpid()}\n")
    if chatty:
        print("serve_backend: starting (a banner on stdout)", flush=True)
    if handshake == "none":
        time.sleep(3600)
        return
    reply({"sonnx_protocol": 2 if handshake == "v2" else 1, "name": "serve_backend", "version": "1.0"})
    for line in sys.stdin:
        request = json.loads(line)
        test = os.path.basename(os.path.dirname(request["model"]))
        what = misbehave.get(test, "")
        if chatty:
            print(f"serve_backend: running {test}", flush=True)
            print(f"serve_backend: stderr note for {test}", file=sys.stderr, flush=True)
        if what == "hang":
            time.sleep(3600)
        elif what == "segv":
            os.kill(os.getpid(), signal.SIGSEGV)
        elif what == "exit":
            print(f"serve_backend: giving up on {test}", file=sys.stderr, flush=True)
            sys.exit(5)
        elif what == "garbage":
            sys.stdout.write("{this is not a reply\n")
            sys.stdout.flush()
        elif what == "stale":
            reply({"id": request["id"] + 1000, "status": "ok"})
        elif what == "refuse":
            reply({"id": request["id"], "status": "unsupported", "reason": f"serve_backend declines {test}: no kernel"})
        elif what == "error":
            reply({"id": request["id"], "status": "error", "message": f"serve_backend failed on {test}"})
        else:
            error = run_model(sonnx, request)
            reply({"id": request["id"], "status": "error", "message": error} if error else {"id": request["id"], "status": "ok"})


if __name__ == "__main__":
    main()
