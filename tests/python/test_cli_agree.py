"""sonnx.run gives bitwise the outputs of `sonnx run` (the CLI, SONNX_CLI) on real models: those
in SONNX_REAL_MODELS (conformance/data/make-real-models.sh makes them) and the model tests of onnx
1.19.1's "simple" suite (SONNX_SUITE_119, imported from ../shared), each on its first data set."""
import glob
import os
import subprocess

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

import sonnx

CLI = os.environ.get("SONNX_CLI", "")
REAL = os.environ.get("SONNX_REAL_MODELS", "")
SUITE = os.environ.get("SONNX_SUITE_119", "")


def synthetic_inputs(path):
    """Deterministic inputs for every graph input without an initializer (a symbolic batch
    dimension is 1, any other symbolic dimension 64)."""
    m = onnx.load(path, load_external_data=False)
    inits = {i.name for i in m.graph.initializer}
    rng = np.random.default_rng(0)
    out = {}
    for i in m.graph.input:
        if i.name in inits:
            continue
        t = i.type.tensor_type
        shape = [d.dim_value if d.HasField("dim_value") else (1 if k == 0 else 64) for k, d in enumerate(t.shape.dim)]
        dtype = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[t.elem_type]
        value = (rng.random(shape) * 2 - 1).astype(dtype) if np.issubdtype(dtype, np.floating) else np.zeros(shape, dtype)
        out[i.name] = (value, None)
    return out


def suite_inputs(test_dir):
    """The first data set's inputs: {name: (array, the .pb file)}."""
    m = onnx.load(os.path.join(test_dir, "model.onnx"))
    inits = {i.name for i in m.graph.initializer}
    names = [i.name for i in m.graph.input if i.name not in inits]
    files = sorted(glob.glob(os.path.join(test_dir, "test_data_set_0", "input_*.pb")))
    out = {}
    for n, f in zip(names, files):
        t = onnx.TensorProto()
        with open(f, "rb") as fh:
            t.ParseFromString(fh.read())
        out[n] = (numpy_helper.to_array(t), f)
    return out


def cases():
    found = []
    if REAL and os.path.isdir(REAL):
        found += [(p, None) for p in sorted(glob.glob(os.path.join(REAL, "*.onnx")))]
    if SUITE and os.path.isdir(os.path.join(SUITE, "simple")):
        for d in sorted(glob.glob(os.path.join(SUITE, "simple", "test_*"))):
            if glob.glob(os.path.join(d, "test_data_set_0", "input_0.pb")) and not glob.glob(os.path.join(d, "test_data_set_0", "input_*_*")):
                found.append((os.path.join(d, "model.onnx"), d))
    return found


CASES = cases()


def test_there_are_models_to_compare():
    if not CASES:
        pytest.skip("SKIP: no real models (SONNX_REAL_MODELS) and no onnx 1.19.1 suite (SONNX_SUITE_119; shared data)")
    assert len(CASES) >= 5


@pytest.mark.parametrize("path,test_dir", CASES, ids=[os.path.basename(d or p) for p, d in CASES])
def test_python_run_matches_the_cli(tmp_path, path, test_dir):
    assert CLI and os.access(CLI, os.X_OK), "SONNX_CLI must name the sonnx executable"
    try:
        given = suite_inputs(test_dir) if test_dir else synthetic_inputs(path)
    except (ValueError, KeyError, TypeError) as e:  # an input that is not a plain tensor
        pytest.skip("SKIP: inputs of %s are not plain tensors (%s)" % (path, e))
    executor = "linear" if test_dir is None else "reference"
    try:
        ours = sonnx.run(path, {n: v for n, (v, _) in given.items()}, executor=executor, threads=1)
    except (sonnx.Unsupported, sonnx.CheckFailed) as e:
        pytest.skip("SKIP: %s is not run by sonnx: %s" % (path, str(e).splitlines()[0]))
    args = [CLI, "run", path, "--executor", executor, "--threads", "1", "--output-dir", str(tmp_path)]
    for name, (value, pb) in given.items():
        if pb is None:
            pb = tmp_path / ("in_%d.pb" % len(args))
            pb.write_bytes(numpy_helper.from_array(value, name).SerializeToString())
        args += ["--input", "%s=%s" % (name, pb)]
    subprocess.run(args, check=True, capture_output=True)
    for name, value in ours.items():
        safe = "".join(c if c.isalnum() or c in "_-." else "_" for c in name)
        t = onnx.TensorProto()
        t.ParseFromString((tmp_path / (safe + ".pb")).read_bytes())
        cli = numpy_helper.to_array(t)
        assert cli.dtype == value.dtype and cli.shape == value.shape, name
        if value.dtype == object:
            assert [x.decode() if isinstance(x, bytes) else x for x in cli.ravel()] == list(value.ravel()), name
        else:
            assert cli.tobytes() == value.tobytes(), "%s: output %s differs from the CLI's" % (path, name)
