#!/usr/bin/python3
"""A runtime command (the process protocol, docs/backends.md) that runs each model on a plugin
through `sonnx run --devices PLUGIN,cpu`, so that a plugin's planted fault (SONNX_SAMPLE_FAULT)
shows through --backend-cmd: certify then localizes through files, one-node model by one-node model.

  plugin_cmd_backend.py SONNX PLUGIN MODEL INPUT_DIR OUTPUT_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile

import onnx


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__.strip())
    sonnx, plugin, model_file, input_dir, output_dir = sys.argv[1:]
    graph = onnx.load(model_file).graph
    initializers = {t.name for t in graph.initializer}
    args = [sonnx, "run", model_file, "--devices", plugin + ",cpu"]
    for k, vi in enumerate(graph.input):
        if vi.name not in initializers:
            args += ["--input", f"{vi.name}={os.path.join(input_dir, f'input_{k}.pb')}"]
    with tempfile.TemporaryDirectory() as out:
        run = subprocess.run(args + ["--output-dir", out], capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stderr.strip() or run.stdout.strip())
            sys.exit(1)
        for k, vi in enumerate(graph.output):
            shutil.copy(os.path.join(out, vi.name + ".pb"), os.path.join(output_dir, f"output_{k}.pb"))


if __name__ == "__main__":
    main()
