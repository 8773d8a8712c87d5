// The test driver that `sonnx emit-c` writes beside a model's C code (main.c), as C text.
//
// The program it makes speaks sonnx's process protocol (docs/backends.md, "The process protocol"):
//
//   prog [MODEL] INPUT_DIR OUTPUT_DIR     reads INPUT_DIR/input_K.pb (TensorProto) or, when that is
//                                         absent, input_K.npy for the K-th input; writes
//                                         OUTPUT_DIR/output_K.pb (TensorProto, raw_data) for each output
//   prog -o OUTPUT_DIR FILE...            the inputs as .pb or .npy files, in order
//   prog --help
//
// Every input's element type and shape are checked against the model's; a malformed or truncated
// file, a mismatch, a missing weights file or a failing PREFIX_run is a message on stderr and exit
// status 1 (2 for a usage error), never a crash. The buffers are static arrays sized by constants
// (the arena aligned to 64 bytes inside an over-allocated static array); malloc is used only to
// hold a file being read (a string input's file is kept to the end: its views point into it). The C is C99 and compiles warning-free with gcc and clang at
// `-std=c99 -Wall -Wextra -pedantic -Wconversion`; it needs <stdint.h>, <stdio.h>, <stdlib.h>,
// <string.h> and <errno.h> only.
#pragma once
#include <string>
#include <vector>

#include "sonnx/dtype.h"
#include "sonnx/tensor.h"

namespace sonnx::emit {

// One graph input or output as the driver sees it.
struct DriverTensor {
  std::string name;   // the graph value's name (written into output_K.pb, quoted in messages)
  std::string field;  // the member of PREFIX_inputs / PREFIX_outputs that points to it
  DType dtype = DType::Undefined;
  Shape shape;
};

// The text of main.c for a model whose header is PREFIX.h (which declares PREFIX_ARENA_BYTES,
// PREFIX_inputs, PREFIX_outputs, PREFIX_run and, with weights in a file, PREFIX_load_weights and
// PREFIX_WEIGHTS_FILE). With `weights_from_file`, the program loads the weights before anything
// else: from $SONNX_WEIGHTS if set, else PREFIX_WEIGHTS_FILE beside the executable, else in the
// current directory. Every element type is held as c_storage_type() says (complex64/complex128 as
// { re, im }, read and written as their parts; string as a view into the input file's bytes,
// which the program keeps, from and to TensorProto string_data only); throws EmitRefused for an
// element type it does not map (Undefined).
std::string driver_source(const std::string& prefix, const std::vector<DriverTensor>& inputs,
                          const std::vector<DriverTensor>& outputs, bool weights_from_file);

}  // namespace sonnx::emit
