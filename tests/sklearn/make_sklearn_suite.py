#!/usr/bin/python3
"""Trains small scikit-learn models on fixed-seed synthetic data and writes each as an ONNX
backend-test directory whose expected outputs are scikit-learn's own (predict, predict_proba,
decision_function, transform). Usage: make_sklearn_suite.py OUT_DIR

OUT_DIR/test_sklearn_<name>/ for the tensor-valued models; OUT_DIR/maps/test_sklearn_<name>/ for
those with map values (ZipMap, DictVectorizer). The converters are this folder's skl_*.py, written
from the ONNX operator documents; what each relies on is said at the top of its file. Exits 77
(a skip for ctest) when scikit-learn is not importable.
"""
import importlib.util
import os
import shutil
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # the converters are imported from the source tree: leave it clean


def main():
    start = time.time()
    if len(sys.argv) != 2:
        sys.exit("usage: make_sklearn_suite.py OUT_DIR")
    if importlib.util.find_spec("sklearn") is None:
        print("SKIP: scikit-learn is not importable (Debian: python3-sklearn)")
        sys.exit(77)
    warnings.simplefilter("ignore")  # convergence and deprecation notes of the small fits
    import skl_linear
    import skl_maps
    import skl_preprocess
    import skl_svm
    import skl_trees
    from skl_write import write_case

    out = sys.argv[1]
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    counts = {}
    for folder, module in (("", skl_linear), ("", skl_svm), ("", skl_trees), ("", skl_preprocess), ("maps", skl_maps)):
        for case in module.cases():
            write_case(os.path.join(out, folder), case)
            counts[folder] = counts.get(folder, 0) + 1
    print(f"wrote {counts.get('', 0)} tests to {out} and {counts.get('maps', 0)} to {os.path.join(out, 'maps')} "
          f"in {time.time() - start:.1f} s")


if __name__ == "__main__":
    main()
